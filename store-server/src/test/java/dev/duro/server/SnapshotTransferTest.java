package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.consensus.SnapshotFile;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.node.PeerMessageCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot fetch between nodes (docs/replication.md, "Catching up from a snapshot") against a real node: what
 * arrives is the node's snapshot byte for byte with its position and digest, and each refusal is typed and names
 * its reason. The fetch as a replica uses it, behind a purged log, is tested by LargeSnapshotCatchUpTest and
 * ProcessClusterFaultTest.
 */
class SnapshotTransferTest {
    @TempDir
    Path data;

    private TestCluster cluster;
    private SnapshotTransfer fetcher;

    @BeforeEach
    void startNode() throws IOException {
        cluster = TestCluster.builder(data.resolve("cluster"))
                .nodes(1)
                .partitions(1)
                .replication(1)
                .set("raft.snapshot-every-entries", "10")
                .start();
        String node = cluster.nodeIds().get(0);
        ServerConfig config = cluster.config(node);
        fetcher = new SnapshotTransfer(
                "fetcher",
                PeerMessageCodec.wireCodec(Limits.DEFAULT),
                config.nodes(),
                config.frameBytesMax(),
                () -> null,
                null);
    }

    @AfterEach
    void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aFetchCopiesTheNodesNewestSnapshotWithItsPositionAndDigest() throws Exception {
        String node = cluster.nodeIds().get(0);
        try (DuroClient client = cluster.newClient()) {
            for (int i = 0; i < 60; i++) {
                int n = i;
                client.transact(tx -> {
                    tx.put(Bytes.utf8("key-" + n), Bytes.wrap(new byte[1000 + n]));
                    return null;
                });
            }
        }
        SnapshotFile newest = Await.until("a snapshot at " + node, () -> {
            Optional<SnapshotFile> latest =
                    cluster.server(node).consensus().replica(0).latestSnapshot();
            return latest.isPresent() && latest.get().index() >= 20
                    ? Await.Poll.done(latest.get())
                    : Await.Poll.notYet("newest: " + latest.map(SnapshotFile::index));
        });
        Path into = data.resolve("fetched");

        SnapshotFile fetched = fetcher.fetch(node, 0, newest.index(), into);

        assertTrue(fetched.index() >= newest.index(), "the newest snapshot or a newer one: " + fetched.index());
        assertEquals(into, fetched.file());
        byte[] bytes = Files.readAllBytes(into);
        assertEquals(fetched.bytes(), bytes.length);
        assertArrayEquals(MessageDigest.getInstance("MD5").digest(bytes), fetched.md5());
        if (fetched.index() == newest.index()) {
            assertArrayEquals(Files.readAllBytes(newest.file()), bytes, "the node's file, byte for byte");
            assertEquals(newest.term(), fetched.term());
        }
    }

    @Test
    void refusalsAreTypedAndLeaveNoFileBehind() throws Exception {
        String node = cluster.nodeIds().get(0);
        Path into = data.resolve("refused");

        IOException noReplica = assertThrows(IOException.class, () -> fetcher.fetch(node, 7, 0, into));
        assertTrue(noReplica.getMessage().contains("UNKNOWN_PARTITION"), noReplica.getMessage());

        IOException tooNew = assertThrows(IOException.class, () -> fetcher.fetch(node, 0, 1_000_000_000L, into));
        assertTrue(tooNew.getMessage().contains("SNAPSHOT_NOT_READY"), tooNew.getMessage());
        assertTrue(tooNew.getMessage().contains("1000000000 or later"), tooNew.getMessage());

        IOException unknownNode = assertThrows(IOException.class, () -> fetcher.fetch("n9", 0, 0, into));
        assertTrue(unknownNode.getMessage().contains("no node n9"), unknownNode.getMessage());

        assertFalse(Files.exists(into), "a refused fetch leaves no file");
        try (DuroClient client = cluster.newClient()) {
            client.transact(tx -> {
                tx.put("after", "the node serves on");
                return null;
            });
        }
    }
}
