package dev.duro.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The protocol core stays deterministic: no network, no consensus library, no threads or concurrency, no
 * clock and no randomness (docs/architecture.md §1, §3). These rules fail the build the moment one of them is broken.
 */
class ModuleBoundariesTest {
    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.duro.core");
    }

    @Test
    void coreExists() {
        // Guards the rules below against passing vacuously on an empty import.
        org.junit.jupiter.api.Assertions.assertTrue(core.contain("dev.duro.core.engine.PartitionEngine"));
        // The wire module's classes come in too (same packages, another jar): its rule must not pass on nothing.
        org.junit.jupiter.api.Assertions.assertTrue(core.contain("dev.duro.core.wire.WireCodec"));
    }

    @Test
    void coreUsesNoNetworkOrConsensus() {
        ArchRule rule = noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.netty..", "org.apache.ratis..", "java.net..", "java.nio.channels..")
                .because("store-core is the deterministic protocol core");
        rule.check(core);
    }

    @Test
    void coreUsesNoThreadsOrConcurrency() {
        ArchRule rule = noClasses()
                .should()
                .dependOnClassesThat()
                .areAssignableTo(Thread.class)
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage("java.util.concurrent..")
                .because("the partition engine is single-threaded; its host owns concurrency");
        rule.check(core);
    }

    @Test
    void coreReadsNoClockAndNoRandomness() {
        ArchRule rule = noClasses()
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethod(Instant.class, "now")
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Clock.class)
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Random.class)
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(SecureRandom.class)
                .because("time enters the engine only through tick(now), and decisions never use randomness");
        rule.check(core);
    }

    @Test
    void packagesDependOnEachOtherWithoutCycles() {
        // The engine encodes its own types (engine.CoreCodec) over codec's value codec and byte readers and
        // writers; codec sees nothing above it, so it can be read, fuzzed and changed alone.
        slices().matching("dev.duro.core.(*)..")
                .should()
                .beFreeOfCycles()
                .because("a package is understood from the packages below it (docs/architecture.md §1)")
                .check(core);
    }

    @Test
    void theWireModuleSeesNothingOfTheEngine() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.duro.core", "dev.duro.core.codec..", "dev.duro.core.partition..", "dev.duro.core.wire..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.duro.core.engine..",
                        "dev.duro.core.store..",
                        "dev.duro.core.certify..",
                        "dev.duro.core.snapshot..",
                        "dev.duro.core.node..")
                .because("store-wire is all a client depends on (docs/architecture.md §1)")
                .check(core);
    }
}
