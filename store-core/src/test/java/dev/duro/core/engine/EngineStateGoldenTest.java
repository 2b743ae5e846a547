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
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Engine snapshots written by an earlier build restore in this one and are written back byte for byte: the golden
 * states under {@code src/test/resources/dev/duro/core/engine/golden/} were written by the engine as it was before
 * it was split into collaborators (format 3), each from a fixed scenario below, and are kept gzipped.
 *
 * <p>Each scenario feeds partition 0 seeded {@link RandomEngineInputs} and a {@link CutAdvance} every 50 inputs, with
 * settings small enough that the state holds pending globals with votes and logged decisions, retained, pinned and
 * forgotten outcomes, buffered votes, a dependency vector and a cut floor. The second test checks that the scenario
 * still writes the golden bytes, i.e. that the engine still reaches the same state from the same inputs; it depends
 * on {@link RandomEngineInputs} drawing as it did. To write the files again (only for a new format):
 * {@code -Dduro.engine.golden.write=true}, run in the store-core directory.
 */
class EngineStateGoldenTest {
    private static final EngineStateCodec CODEC = new EngineStateCodec(Limits.DEFAULT);
    private static final String WRITE_PROPERTY = "duro.engine.golden.write";
    private static final Path SOURCE_DIRECTORY = Path.of("src/test/resources/dev/duro/core/engine/golden");

    private record Scenario(String name, long seed, EngineSettings settings, int inputs) {
        String resource() {
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
            byte[] golden = golden(scenario);
            PartitionEngine restored = CODEC.read(golden, RandomEngineInputs.PARTITION, scenario.settings());
            assertArrayEquals(golden, CODEC.write(restored), scenario.name() + ": written back differently");
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
                        Files.newOutputStream(SOURCE_DIRECTORY.resolve(scenario.name() + ".bin.gz")))) {
                    out.write(state);
                }
                continue;
            }
            assertArrayEquals(golden(scenario), state, scenario.name() + ": the engine reached another state");
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

    private static byte[] golden(Scenario scenario) throws IOException {
        InputStream resource = EngineStateGoldenTest.class.getResourceAsStream(scenario.resource());
        if (resource == null) {
            throw new IOException("missing golden state " + scenario.resource());
        }
        try (InputStream in = new GZIPInputStream(resource)) {
            return in.readAllBytes();
        }
    }
}
