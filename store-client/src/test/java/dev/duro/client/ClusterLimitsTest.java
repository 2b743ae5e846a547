package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client learns the cluster's size limits with its layout and refuses what is outside them before sending. */
class ClusterLimitsTest {
    private final FakeCluster cluster = new FakeCluster(1).limits(new Limits(8, 16, 3));
    private final DuroClient client = cluster.client(0);

    @AfterEach
    void stop() {
        client.close();
        cluster.close();
    }

    @Test
    void theClusterReportsItsLimitsWithItsLayout() {
        assertEquals(new Limits(8, 16, 3), client.cluster().limits());
    }

    @Test
    void aValueOverTheClustersLimitIsRefusedNamingTheSettingAndNothingIsSent() {
        LimitExceededException refused = assertThrows(
                LimitExceededException.class,
                () -> client.transact(tx -> {
                    tx.put("k", "a value of more than sixteen bytes");
                    return null;
                }));
        assertEquals(Limits.Limit.VALUE_BYTES, refused.limit());
        assertEquals(16, refused.maximum());
        assertTrue(refused.getMessage().contains("limits.value-bytes-max"), refused.getMessage());
        assertEquals(0, cluster.commits().size(), "nothing reached the cluster");
    }

    @Test
    void keysAndTransactionSizesAreCheckedAgainstTheClustersLimitsToo() {
        assertThrows(
                LimitExceededException.class,
                () -> client.transact(tx -> {
                    tx.put("a key longer than eight bytes", "v");
                    return null;
                }));
        LimitExceededException tooMany = assertThrows(
                LimitExceededException.class,
                () -> client.transact(tx -> {
                    for (int i = 0; i < 4; i++) {
                        tx.put("k" + i, "v");
                    }
                    return null;
                }));
        assertEquals(Limits.Limit.TRANSACTION_KEYS, tooMany.limit());
        assertEquals(0, cluster.commits().size());
    }
}
