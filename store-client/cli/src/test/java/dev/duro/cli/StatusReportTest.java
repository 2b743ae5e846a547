package dev.duro.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.ClusterView;
import dev.duro.client.UnavailableException;
import dev.duro.core.Limits;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.PartitionerSpec;
import dev.duro.core.wire.ReplicaStatusReply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusReportTest {
    private static final HostPort N1 = new HostPort("127.0.0.1", 7101);
    private static final HostPort N2 = new HostPort("127.0.0.1", 7102);
    private static final HostPort N3 = new HostPort("127.0.0.1", 7103);

    private final Map<String, ReplicaStatusReply> replies = new HashMap<>();

    @Test
    void agreeingReplicasShowTheirRolesAndLag() {
        answer(N1, 0, status("n1", "n1", 100, 0xabcL, 90, 90));
        answer(N2, 0, status("n2", "n1", 100, 0xabcL, 90, 88));
        answer(N3, 0, status("n3", "n1", 100, 0xabcL, 87, 87));

        Printed printed = print();

        assertEquals(0, printed.status);
        assertTrue(printed.text.contains("partition 0: leader n1 (term 4); 3 replicas agree at SC 100"), printed.text);
        assertTrue(
                printed.text.matches(
                        "(?s).*n1 +127\\.0\\.0\\.1:7101 +leader +4 +90 +90 +0 +100 +0 +0000000000000abc.*"),
                printed.text);
        assertTrue(printed.text.matches("(?s).*n2 +127\\.0\\.0\\.1:7102 +follower +4 +90 +88 +2 .*"), printed.text);
        assertTrue(printed.text.matches("(?s).*n3 +127\\.0\\.0\\.1:7103 +follower +4 +87 +87 +3 .*"), printed.text);
    }

    @Test
    void replicasAtOneSnapshotWithDifferentDigestsHaveDiverged() {
        answer(N1, 0, status("n1", "n1", 100, 0xabcL, 90, 90));
        answer(N2, 0, status("n2", "n1", 100, 0xdefL, 90, 90));
        answer(N3, 0, status("n3", "n1", 99, 0x123L, 90, 89));

        Printed printed = print();

        assertEquals(StatusReport.DIVERGED, printed.status);
        assertTrue(printed.text.contains("DIVERGED: n1 and n2 hold different data at SC 100"), printed.text);
    }

    @Test
    void replicasBehindAreConvergingAndTheUnreachableAreNamed() {
        answer(N1, 0, status("n1", "", 100, 0xabcL, 90, 90));
        answer(N3, 0, status("n3", "", 40, 0x123L, 60, 50));

        Printed printed = print();

        assertEquals(0, printed.status);
        assertTrue(
                printed.text.contains(
                        "partition 0: NO LEADER known to any replica; 2 replicas converging, SC 40 to 100"),
                printed.text);
        assertTrue(printed.text.matches("(?s).*n1 +127\\.0\\.0\\.1:7101 +no-leader .*"), printed.text);
        assertTrue(printed.text.matches("(?s).*\\? +127\\.0\\.0\\.1:7102 +unreachable: n2 is down.*"), printed.text);
        // n3's lag is against the highest commit index any replica reported (n1's 90).
        assertTrue(printed.text.matches("(?s).*n3 +127\\.0\\.0\\.1:7103 +no-leader +4 +60 +50 +40 .*"), printed.text);
    }

    private record Printed(int status, String text) {}

    private Printed print() {
        ClusterInfoReply info = new ClusterInfoReply(
                1,
                "test",
                PartitionerSpec.hash(),
                List.of(new ClusterInfoReply.PartitionInfo(List.of(N1, N2, N3), 0)),
                Limits.DEFAULT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = new StatusReport(new ClusterView(info), (node, partition) -> {
                    ReplicaStatusReply reply = replies.get(node + "/" + partition);
                    if (reply == null) {
                        throw new UnavailableException("n2 is down", true);
                    }
                    return reply;
                })
                .print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Printed(status, bytes.toString(StandardCharsets.UTF_8));
    }

    private void answer(HostPort node, int partition, ReplicaStatusReply reply) {
        replies.put(node + "/" + partition, reply);
    }

    private static ReplicaStatusReply status(
            String node, String leader, long snapshotCounter, long digest, long commitIndex, long appliedIndex) {
        return new ReplicaStatusReply(1, 0, snapshotCounter, digest, 0, node, leader, 4, commitIndex, appliedIndex);
    }
}
