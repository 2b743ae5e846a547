package dev.duro.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rules over every module at once, checked here because this module's classpath holds all of them: only the
 * consensus module touches Ratis, and no two packages depend on each other (docs/architecture.md §1). Each
 * module's own {@code ModuleBoundariesTest} adds the rules that are its alone.
 */
class ProjectBoundariesTest {
    private static JavaClasses duro;

    @BeforeAll
    static void importEveryModule() {
        duro = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("jmh_generated"))
                .importPackages("dev.duro");
    }

    @Test
    void everyModuleIsImported() {
        // Guards the rules below against passing on a partial classpath.
        for (String name : new String[] {
            "dev.duro.core.engine.PartitionEngine",
            "dev.duro.consensus.ConsensusNode",
            "dev.duro.server.DuroServer",
            "dev.duro.client.DuroClient",
            "dev.duro.cli.DuroCli",
            "dev.duro.bench.load.LoadGenerator"
        }) {
            assertTrue(duro.contain(name), name + " not imported");
        }
    }

    @Test
    void onlyConsensusUsesRatis() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.duro.consensus..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.ratis..")
                .because("Ratis is an implementation detail of the consensus module")
                .check(duro);
    }

    @Test
    void noCodeCompilesAgainstTheLoggingBackend() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("ch.qos.logback..", "net.logstash..")
                .because("the backend is chosen by configuration (logback.xml), at runtime scope only")
                .check(duro);
    }

    @Test
    void theEngineKnowsNothingOfLogging() {
        noClasses()
                .that()
                .resideInAPackage("dev.duro.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.slf4j..", "java.util.logging..")
                .because("the engine is deterministic and single-threaded; its callers log and set the context")
                .check(duro);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.duro.(**)").should().beFreeOfCycles().check(duro);
    }
}
