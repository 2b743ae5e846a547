package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.client.DuroClient;
import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client needs no configuration to match a cluster's limits: it learns them from the cluster. */
class ClusterLimitsTest {
    @TempDir
    Path data;

    @Test
    void aClusterWithLargerValuesServesThemToAClientThatWasNeverToldItsLimits() throws IOException {
        int valueBytesMax = 2 * Limits.DEFAULT.valueBytesMax();
        try (TestCluster cluster = TestCluster.builder(data)
                        .nodes(1)
                        .partitions(1)
                        .replication(1)
                        .set("limits.value-bytes-max", Integer.toString(valueBytesMax))
                        .start();
                DuroClient client = cluster.newClient()) {
            String large = "x".repeat(Limits.DEFAULT.valueBytesMax() + 1);
            client.put("large", large);
            assertEquals(large, client.get("large"), "a value over the default limit, within the cluster's");

            String tooLarge = "y".repeat(valueBytesMax + 1);
            LimitExceededException refused =
                    assertThrows(LimitExceededException.class, () -> client.put("k", tooLarge));
            assertEquals(valueBytesMax, refused.maximum(), "refused at the cluster's limit, before sending");
        }
    }
}
