package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Limits;
import dev.duro.core.certify.CertifierSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Engine snapshots written by an earlier build restore in this one and are written back byte for byte: the golden
 * states under {@code src/test/resources/dev/duro/core/engine/golden/} are kept gzipped, each from a fixed scenario
 * below. {@code <name>.bin.gz} were written by the engine as it was before it was split into collaborators (format
 * 3, the store's keys sorted); {@code <name>.pages.bin.gz} by this one (the same format, the store's keys in the order
 * of its pages: docs/replication.md, "Snapshots do not stop applying"). A store is written back in the order it was
 * read in, so both kinds come back byte for byte.
 *
 * <p>Each scenario feeds partition 0 seeded {@link RandomEngineInputs} and a {@link CutAdvance} every 50 inputs, with
 * settings small enough that the state holds pending globals with votes and logged decisions, retained, pinned and
 * forgotten outcomes, buffered votes, a dependency vector and a cut floor. The second test checks that the scenario
 * still writes the golden bytes, i.e. that the engine still reaches the same state from the same inputs; it depends
 * on {@link RandomEngineInputs} drawing as it did. To write the current files again (only for a new format or order):
 * {@code -Dduro.engine.golden.write=true}, run in the store-core directory.
 */
class EngineStateGoldenTest {
    private static final EngineStateCodec CODEC = new EngineStateCodec(Limits.DEFAULT);
    private static final String WRITE_PROPERTY = "duro.engine.golden.write";
    private static final Path SOURCE_DIRECTORY = Path.of("src/test/resources/dev/duro/core/engine/golden");

    private record Scenario(String name, long seed, EngineSettings settings, int inputs) {
        /** The state as the engine writes it now. */
        String resource() {
            return "golden/" + name + ".pages.bin.gz";
        }

        /** The state as an earlier build wrote it, with the store's keys sorted. */
        String sortedResource() {
            return "golden/" + name + ".bin.gz";
        }
    }

    private static final List<Scenario> SCENARIOS = List.of(
            new Scenario(
                    "small-windows", 41, new EngineSettings(CertifierSettings.exact(20), 4, 12, 3, 50, 1_000), 400),
            new Scenario(
                    "bloom-readsets",
                    42,
                    new EngineSettings(CertifierSettings.exact(30).withBloomReadSetKeysMin(2), 6, 40, 4, 50, 1_000),
                    400),
            new Scenario(
                    "large-windows",
                    43,
                    new EngineSettings(CertifierSettings.exact(40), 8, 1_000, 100, 50, 1_000),
                    300));

    @Test
    void goldenStatesRestoreAndAreWrittenBackByteForByte() throws IOException {
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            return;
        }
        for (Scenario scenario : SCENARIOS) {
            for (String resource : List.of(scenario.resource(), scenario.sortedResource())) {
                byte[] golden = golden(resource);
                PartitionEngine restored = CODEC.read(golden, RandomEngineInputs.PARTITION, scenario.settings());
                assertArrayEquals(golden, CODEC.write(restored), resource + ": written back differently");
            }
        }
    }

    /**
     * Both kinds of golden state hold one state, in two orders of the store's keys: the same size, the same content,
     * and the same bytes once each is sorted (a permutation of the keys' records leaves the bytes' multiset alone).
     */
    @Test
    void sortedAndPagedGoldenStatesHoldTheSameState() throws IOException {
        for (Scenario scenario : SCENARIOS) {
            byte[] paged = golden(scenario.resource());
            byte[] sorted = golden(scenario.sortedResource());
            assertEquals(sorted.length, paged.length, scenario.name() + ": sizes");
            assertEquals(
                    EngineStateCodec.contentDigest(
                            CODEC.read(sorted, RandomEngineInputs.PARTITION, scenario.settings())),
                    EngineStateCodec.contentDigest(
                            CODEC.read(paged, RandomEngineInputs.PARTITION, scenario.settings())),
                    scenario.name() + ": content");
            byte[] sortedBytes = sorted.clone();
            byte[] pagedBytes = paged.clone();
            Arrays.sort(sortedBytes);
            Arrays.sort(pagedBytes);
            assertArrayEquals(sortedBytes, pagedBytes, scenario.name() + ": bytes");
        }
    }

    @Test
    void scenariosStillWriteTheGoldenStates() throws IOException {
        for (Scenario scenario : SCENARIOS) {
            PartitionEngine engine = run(scenario);
            byte[] state = CODEC.write(engine);
            if (Boolean.getBoolean(WRITE_PROPERTY)) {
                Files.createDirectories(SOURCE_DIRECTORY);
                try (OutputStream out = new GZIPOutputStream(
                        Files.newOutputStream(SOURCE_DIRECTORY.resolve(scenario.name() + ".pages.bin.gz")))) {
                    out.write(state);
                }
                continue;
            }
            assertArrayEquals(
                    golden(scenario.resource()), state, scenario.name() + ": the engine reached another state");
        }
    }

    /** The scenarios reach the states they are meant to cover, so the golden files test what they claim to. */
    @Test
    void scenariosCoverEveryPartOfTheState() {
        PartitionEngine small = run(SCENARIOS.get(0));
        assertTrue(small.pendingCount() > 0, "pending");
        assertTrue(small.pinnedCount() > 0, "pinned");
        assertTrue(small.forgottenUpTo() >= 0, "forgotten");
        assertTrue(small.bufferedVotes().size() > 0, "buffered votes");
        assertTrue(small.frontier().dependencies().stream().anyMatch(number -> number > 0), "dependencies");
        assertTrue(small.cutFloor().length > 0, "cut floor");
        for (Scenario scenario : SCENARIOS) {
            assertEquals(RandomEngineInputs.PARTITION, run(scenario).partition());
        }
    }

    private static PartitionEngine run(Scenario scenario) {
        Random random = new Random(scenario.seed());
        PartitionEngine engine = new PartitionEngine(RandomEngineInputs.PARTITION, scenario.settings());
        engine.setDesignatedVoter(true);
        RandomEngineInputs inputs = new RandomEngineInputs(random, 12);
        for (int i = 1; i <= scenario.inputs(); i++) {
            inputs.next(engine).applyTo(engine);
            if (i % 50 == 0) {
                long sc = engine.snapshotCounter();
                engine.deliver(new CutAdvance(RandomEngineInputs.PARTITION, List.of(sc, sc / 2 + i, sc / 3)));
            }
        }
        return engine;
    }

    private static byte[] golden(String name) throws IOException {
        InputStream resource = EngineStateGoldenTest.class.getResourceAsStream(name);
        if (resource == null) {
            throw new IOException("missing golden state " + name);
        }
        try (InputStream in = new GZIPInputStream(resource)) {
            return in.readAllBytes();
        }
    }
}
