package dev.duro.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** Applications embed the client: it must never pull in the consensus library (docs/architecture.md §1). */
class ModuleBoundariesTest {
    @Test
    void clientNeverUsesRatis() {
        JavaClasses client = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.duro.client");
        Assertions.assertFalse(client.isEmpty(), "no client classes imported");
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.ratis..", "dev.duro.consensus..", "dev.duro.server..")
                .check(client);
    }

    @Test
    void clientLogsThroughTheSlf4jApiOnlySoThatApplicationsChooseTheBackend() {
        JavaClasses client = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.duro.client");
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("ch.qos.logback..", "org.slf4j.simple..", "org.apache.logging.log4j.core..")
                .check(client);
    }
}
