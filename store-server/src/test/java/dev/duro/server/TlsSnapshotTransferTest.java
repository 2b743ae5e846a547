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
import dev.duro.server.tls.CertsCommand;
import dev.duro.server.tls.NodeTls;
import dev.duro.server.tls.TlsMaterial;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot fetches over TLS (docs/security.md): a node's certificate fetches the snapshot byte for byte (the file
 * crosses TLS in chunks instead of straight from disk); a client's certificate is refused with FORBIDDEN and gets
 * nothing.
 */
class TlsSnapshotTransferTest {
    @TempDir
    Path data;

    private TestCluster cluster;

    @BeforeEach
    void startNode() throws IOException {
        cluster = TestCluster.builder(data.resolve("cluster"))
                .nodes(1)
                .partitions(1)
                .replication(1)
                .tls()
                .set("raft.snapshot-every-entries", "10")
                .start();
    }

    @AfterEach
    void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A fetcher presenting the certificate {@code name}.pem of the cluster's folder. */
    private SnapshotTransfer fetcherAs(String name) {
        Path tls = cluster.tlsDirectory();
        TlsMaterial material = TlsMaterial.read(
                tls.resolve(CertsCommand.CA_FILE), tls.resolve(name + ".pem"), tls.resolve(name + "-key.pem"));
        ServerConfig config = cluster.config("n1");
        return new SnapshotTransfer(
                "fetcher",
                PeerMessageCodec.wireCodec(Limits.DEFAULT),
                config.nodes(),
                config.frameBytesMax(),
                () -> null,
                new NodeTls(material, config.nodes().keySet()));
    }

    @Test
    void aNodeFetchesTheSnapshotByteForByteOverTls() throws Exception {
        try (DuroClient client = cluster.newClient()) {
            for (int i = 0; i < 60; i++) {
                int n = i;
                client.transact(tx -> {
                    tx.put(Bytes.utf8("key-" + n), Bytes.wrap(new byte[1000 + n]));
                    return null;
                });
            }
        }
        SnapshotFile newest = Await.until("a snapshot at n1", () -> {
            Optional<SnapshotFile> latest =
                    cluster.server("n1").consensus().replica(0).latestSnapshot();
            return latest.isPresent() && latest.get().index() >= 20
                    ? Await.Poll.done(latest.get())
                    : Await.Poll.notYet("newest: " + latest.map(SnapshotFile::index));
        });
        Path into = data.resolve("fetched");

        SnapshotFile fetched = fetcherAs("n1").fetch("n1", 0, newest.index(), into);

        byte[] bytes = Files.readAllBytes(into);
        assertEquals(fetched.bytes(), bytes.length);
        assertTrue(bytes.length > 60_000, "the snapshot spans many TLS chunks: " + bytes.length);
        if (fetched.index() == newest.index()) {
            assertArrayEquals(Files.readAllBytes(newest.file()), bytes, "the node's file, byte for byte");
        }
    }

    @Test
    void aClientCertificateCannotFetchASnapshot() {
        Path into = data.resolve("refused");
        IOException refused = assertThrows(
                IOException.class, () -> fetcherAs(TestCluster.TLS_CLIENT).fetch("n1", 0, 0, into));
        assertTrue(refused.getMessage().contains("FORBIDDEN"), refused.getMessage());
        assertFalse(Files.exists(into), "a refused fetch leaves no file");
    }
}
