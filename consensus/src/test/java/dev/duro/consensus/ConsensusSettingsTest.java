package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConsensusSettingsTest {
    private static ConsensusSettings withBatchBytesMax(int bytes) {
        return new ConsensusSettings(
                Path.of("raft"),
                "127.0.0.1",
                0,
                true,
                20_000,
                1_000,
                bytes,
                Math.max(bytes, 64L << 20),
                1,
                Duration.ofSeconds(3),
                ConsensusSettings.BATCH_LINGER_MICROS_DEFAULT);
    }

    @Test
    void aFullAppendEntriesBufferFitsOneMessageWhateverTheBatchSize() {
        for (int bytes : new int[] {1024, 64 << 10, 4 << 20, 100 << 20, 256 << 20}) {
            ConsensusSettings settings = withBatchBytesMax(bytes);
            assertTrue(
                    settings.messageBytesMax() - settings.appenderBufferBytesMax() >= 1 << 20,
                    "an AppendEntries buffer leaves room for its envelope at batch size " + bytes);
        }
    }

    @Test
    void theDefaultsKeepTheLimitTheNodesHaveAlwaysUsed() {
        ConsensusSettings defaults = ConsensusSettings.defaults(Path.of("raft"), "127.0.0.1", 0);
        assertEquals(6 << 20, defaults.messageBytesMax());
    }

    @Test
    void aBatchSizeWhoseMessagesWouldOverflowIsRefusedByName() {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> withBatchBytesMax(Integer.MAX_VALUE - 1));
        assertTrue(refused.getMessage().contains("raft.batch-bytes-max"), refused.getMessage());
    }
}
