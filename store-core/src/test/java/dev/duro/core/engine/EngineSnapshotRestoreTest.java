package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.SeededRuns;
import dev.duro.core.certify.CertifierSettings;
import java.io.ByteArrayOutputStream;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A replica restored from another's state-machine snapshot behaves exactly like it from then on: the same
 * effects for the same inputs, the same reads, the same content digest and the same snapshot bytes.
 *
 * <p>Ticks are left out after the snapshot on purpose: timers are local state that a restored replica starts
 * afresh, so its retransmissions may come at other times.
 */
class EngineSnapshotRestoreTest {
    private static final EngineStateCodec CODEC = new EngineStateCodec(Limits.DEFAULT);

    @Test
    void restoredEngineProducesIdenticalEffectsAndState() {
        SeededRuns.forSeeds(7_000, 150, random -> {
            EngineSettings settings = randomSettings(random);
            boolean designated = random.nextBoolean();
            PartitionEngine original = new PartitionEngine(RandomEngineInputs.PARTITION, settings);
            original.setDesignatedVoter(designated);
            RandomEngineInputs inputs = new RandomEngineInputs(random, 4 + random.nextInt(20));
            int total = 300;
            int snapshotAt = random.nextInt(total);
            for (int i = 0; i < snapshotAt; i++) {
                inputs.next(original).applyTo(original);
            }
            PartitionEngine restored = restore(original, settings, designated);
            for (int i = snapshotAt; i < total; i++) {
                RandomEngineInputs.Input input = inputs.next(original);
                List<Effect> expected = input.applyTo(original);
                assertEquals(expected, input.applyTo(restored), "input " + i + ": " + input);
                compareReads(random, inputs, original, restored);
            }
            assertSameState(original, restored);
        });
    }

    /**
     * A state frozen at one input and written while the engine goes on delivering (each turn of the writer comes
     * after a few more inputs, as a snapshot thread's turns interleave with the applier's) is the state at that
     * input, byte for byte; restored and fed the inputs since, it ends where the engine did.
     */
    @Test
    void stateFrozenAndWrittenWhileTheEngineGoesOnIsTheStateAtTheFreeze() {
        SeededRuns.forSeeds(32_000, 150, random -> {
            EngineSettings settings = randomSettings(random);
            PartitionEngine original = new PartitionEngine(RandomEngineInputs.PARTITION, settings);
            original.setDesignatedVoter(true);
            RandomEngineInputs inputs = new RandomEngineInputs(random, 4 + random.nextInt(20));
            int frozenAt = random.nextInt(300);
            for (int i = 0; i < frozenAt; i++) {
                inputs.next(original).applyTo(original);
            }
            byte[] expected = CODEC.write(original);
            EngineStateCodec.Frozen frozen = CODEC.freeze(original);
            List<RandomEngineInputs.Input> since = new ArrayList<>();
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            frozen.writeTo(file, turn -> {
                for (int i = random.nextInt(25); i > 0; i--) {
                    RandomEngineInputs.Input input = inputs.next(original);
                    input.applyTo(original);
                    since.add(input);
                }
                turn.run();
            });
            frozen.release();
            assertArrayEquals(expected, file.toByteArray(), "frozen state written later");

            PartitionEngine restored = CODEC.read(file.toByteArray(), RandomEngineInputs.PARTITION, settings);
            restored.setDesignatedVoter(true);
            for (RandomEngineInputs.Input input : since) {
                input.applyTo(restored);
            }
            assertSameState(original, restored);
        });
    }

    /**
     * A window and retained outcomes of several chunks each (docs/performance.md, "Freezes without humongous
     * copies, then without allocation"): what a freeze copies in pieces is written later byte for byte as the state
     * was, while the engine goes on; restored, it certifies the transactions delivered since as the original did,
     * reading keys that transactions in every chunk of the window wrote (a slot read from the wrong chunk would change
     * their outcomes).
     */
    @Test
    void aFreezeOfAWindowAndOutcomesOfManyChunksWritesAndRestoresTheStateAsItWas() {
        int size = 2 * dev.duro.core.util.Chunked.CHUNK + 777;
        EngineSettings settings = EngineSettings.DEFAULT
                .withCertification(CertifierSettings.exact(size))
                .withRetention(size, size);
        PartitionEngine original = new PartitionEngine(0, settings);
        original.setDesignatedVoter(true);
        Random random = new Random(11);
        for (int i = 0; i < size + size / 2; i++) { // past the window's and the outcomes' wrap
            original.deliver(request(random, i + 1, original.snapshotCounter()));
        }
        List<CommitRequest> since = new ArrayList<>();
        List<List<Effect>> effects = new ArrayList<>();
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        // Each round's freeze copies into the chunks of the one before, handed back at its release; a second state
        // frozen meanwhile and never released must get chunks of its own.
        EngineStateCodec.Frozen unreleased = CODEC.freeze(original);
        byte[] unreleasedExpected = CODEC.write(original);
        for (int round = 0; round < 3; round++) {
            long firstSequence = size * 2L + round * 100_000L + 1;
            byte[] expected = CODEC.write(original);
            EngineStateCodec.Frozen frozen = CODEC.freeze(original);
            file.reset();
            since.clear();
            effects.clear();
            frozen.writeTo(file, turn -> {
                for (int i = 0; i < 200; i++) {
                    // Read at a snapshot up to the whole window back: the keys written since decide the outcome.
                    long snapshot = original.snapshotCounter() - random.nextInt(size - 100);
                    CommitRequest next = request(random, firstSequence + since.size(), snapshot);
                    since.add(next);
                    effects.add(List.copyOf(original.deliver(next)));
                }
                if (since.size() == 200) {
                    // A freeze of the state since, while this one is written: it must not take this one's chunks.
                    CODEC.write(original);
                }
                turn.run();
            });
            frozen.release();
            assertArrayEquals(expected, file.toByteArray(), "frozen state written later, round " + round);
        }
        ByteArrayOutputStream early = new ByteArrayOutputStream();
        unreleased.writeTo(early, Runnable::run);
        unreleased.release();
        assertArrayEquals(unreleasedExpected, early.toByteArray(), "a state frozen before the rounds, written after");

        PartitionEngine restored = CODEC.read(file.toByteArray(), 0, settings);
        restored.setDesignatedVoter(true);
        long aborted = 0;
        for (int i = 0; i < since.size(); i++) {
            List<Effect> replayed = List.copyOf(restored.deliver(since.get(i)));
            assertEquals(effects.get(i), replayed, "delivery " + i + " since the freeze");
            aborted += replayed.stream()
                    .filter(e ->
                            e instanceof Effect.Reply reply && !reply.outcome().committed())
                    .count();
        }
        assertTrue(aborted > 0 && aborted < since.size(), "both outcomes certified: " + aborted + " aborted");
        assertSameState(original, restored);
    }

    /**
     * A written snapshot's copies go back to the engine for its next freeze with their references dropped: an outcome
     * the engine has forgotten since is not kept alive by the spare copy.
     */
    @Test
    void aWrittenSnapshotKeepsNoForgottenOutcomeAlive() throws InterruptedException {
        EngineSettings settings = EngineSettings.DEFAULT
                .withCertification(CertifierSettings.exact(64))
                .withRetention(64, 64);
        PartitionEngine engine = new PartitionEngine(0, settings);
        engine.setDesignatedVoter(true);
        Random random = new Random(5);
        dev.duro.core.TxId first = new dev.duro.core.TxId(3, 1);
        engine.deliver(request(random, 1, engine.snapshotCounter()));
        WeakReference<Decided> outcome = new WeakReference<>(engine.retention().retained(first));
        assertNotNull(outcome.get());
        CODEC.write(engine); // frozen, written and released: the copies are the engine's spare now
        for (int i = 2; i <= 1_000; i++) {
            engine.deliver(request(random, i, engine.snapshotCounter()));
        }
        assertNull(engine.retention().retained(first), "forgotten by the engine");
        for (int attempt = 0; attempt < 10 && outcome.get() != null; attempt++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(outcome.get(), "the spare copy of the retained outcomes holds no reference to it");
    }

    /** A local transaction that reads and writes one key of 3,000 at {@code snapshot}. */
    private static CommitRequest request(Random random, long sequence, long snapshot) {
        Bytes key = Bytes.utf8("k" + random.nextInt(3_000));
        return new CommitRequest(
                new dev.duro.core.TxId(3, sequence),
                List.of(0),
                snapshot,
                List.of(key),
                List.of(dev.duro.core.Write.put(key, Bytes.utf8("v" + sequence))));
    }

    private static EngineSettings randomSettings(Random random) {
        CertifierSettings certification = random.nextBoolean()
                ? CertifierSettings.exact(1 + random.nextInt(40))
                : CertifierSettings.exact(1 + random.nextInt(40)).withBloomReadSetKeysMin(random.nextInt(6));
        return new EngineSettings(
                certification, 1 + random.nextInt(8), 1 + random.nextInt(40), 1 + random.nextInt(4), 50, 1_000);
    }

    private static PartitionEngine restore(PartitionEngine original, EngineSettings settings, boolean designated) {
        byte[] state = CODEC.write(original);
        PartitionEngine restored = CODEC.read(state, RandomEngineInputs.PARTITION, settings);
        restored.setDesignatedVoter(designated);
        assertArrayEquals(state, CODEC.write(restored), "a restored engine writes the snapshot it was read from");
        assertSameState(original, restored);
        return restored;
    }

    private static void assertSameState(PartitionEngine original, PartitionEngine restored) {
        assertEquals(EngineStateCodec.contentDigest(original), EngineStateCodec.contentDigest(restored));
        assertEquals(original.snapshotCounter(), restored.snapshotCounter());
        assertEquals(original.pendingSnapshotCounter(), restored.pendingSnapshotCounter());
        assertEquals(original.pendingCount(), restored.pendingCount());
        assertEquals(original.frontier(), restored.frontier());
        assertArrayEquals(CODEC.write(original), CODEC.write(restored), "snapshot bytes differ");
    }

    private static void compareReads(
            Random random, RandomEngineInputs inputs, PartitionEngine original, PartitionEngine restored) {
        long oldest = original.oldestReadableSnapshot();
        long snapshot = oldest + random.nextInt((int) (original.snapshotCounter() - oldest) + 1);
        Bytes key = inputs.key();
        assertEquals(original.read(key, snapshot), restored.read(key, snapshot), "read " + key + " at " + snapshot);
    }
}
