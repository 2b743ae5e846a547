package dev.duro.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.GeneralCodingRules.ACCESS_STANDARD_STREAMS;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Applications embed the client: it must never pull in the consensus library (docs/architecture.md §1), and it is
 * a library, not a program: the command line lives in store-cli.
 */
class ModuleBoundariesTest {
    private static JavaClasses client;

    @BeforeAll
    static void importClient() {
        client = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.duro.client");
        // Guards the rules below against passing vacuously on an empty import.
        Assertions.assertTrue(client.contain("dev.duro.client.DuroClient"), "no client classes imported");
    }

    @Test
    void clientNeverUsesRatis() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.ratis..", "dev.duro.consensus..", "dev.duro.server..")
                .check(client);
    }

    @Test
    void clientSeesOnlyTheWireModuleNotTheEngine() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.duro.core.engine..",
                        "dev.duro.core.store..",
                        "dev.duro.core.certify..",
                        "dev.duro.core.snapshot..",
                        "dev.duro.core.node..")
                .because("the client depends on store-wire only (docs/architecture.md §1)")
                .check(client);
        // Not only unused: absent. The client's own classpath (its pom's dependencies) holds no engine.
        Assertions.assertThrows(
                ClassNotFoundException.class, () -> Class.forName("dev.duro.core.engine.PartitionEngine"));
        Assertions.assertThrows(
                ClassNotFoundException.class, () -> Class.forName("com.github.benmanes.caffeine.cache.Caffeine"));
    }

    @Test
    void clientLogsThroughTheSlf4jApiOnlySoThatApplicationsChooseTheBackend() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("ch.qos.logback..", "org.slf4j.simple..", "org.apache.logging.log4j.core..")
                .check(client);
    }

    @Test
    void clientIsALibraryThatNeverEndsTheProcessNorKnowsTheCommandLine() {
        noClasses()
                .should()
                .callMethod(System.class, "exit", int.class)
                .orShould()
                .callMethod(Runtime.class, "exit", int.class)
                .orShould()
                .callMethod(Runtime.class, "halt", int.class)
                .because("the application embedding the client decides when its process ends")
                .check(client);
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.duro.cli..", "picocli..")
                .because("the command line is an application of the client (store-cli), not part of it")
                .check(client);
    }

    @Test
    void clientNeverWritesToTheProcessesStandardStreams() {
        noClasses()
                .should(ACCESS_STANDARD_STREAMS)
                .because("standard output belongs to the application; the client logs through SLF4J")
                .check(client);
    }
}
