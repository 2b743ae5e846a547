package dev.duro.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Only the consensus module touches Ratis (docs/architecture.md §1): the server reaches the partitions' Raft groups
 * through {@code ConsensusNode} and {@code PartitionStateMachine}, in Duro's own types, so that a change of Ratis
 * version or of consensus library stays inside one module.
 */
class ModuleBoundariesTest {
    @Test
    void theServerUsesNoRatisType() {
        JavaClasses server = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.duro.server");
        Assertions.assertFalse(server.isEmpty(), "no server classes imported");
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.ratis..")
                .check(server);
    }
}
