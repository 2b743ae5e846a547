package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class ServerConfigTest {
    private static Properties oneNode(String dataDir) {
        Properties p = new Properties();
        p.setProperty("cluster.nodes", "n1");
        p.setProperty("cluster.partitions", "1");
        p.setProperty("cluster.replication", "1");
        p.setProperty("node.n1.address", "127.0.0.1:7101");
        p.setProperty("node.n1.raft", "127.0.0.1:7201");
        p.setProperty("node.id", "n1");
        p.setProperty("data.dir", dataDir);
        return p;
    }

    @Test
    void aDataDirectoryWithACommaIsRejectedByName() {
        var error =
                assertThrows(ServerConfig.InvalidConfigException.class, () -> ServerConfig.of(oneNode("runs/a,b/n1")));
        assertTrue(error.getMessage().contains("data.dir must not contain a comma"), error.getMessage());
    }

    @Test
    void aPlainDataDirectoryIsTakenAsGiven() {
        assertEquals(
                "runs/a+b/n1",
                ServerConfig.of(oneNode("runs/a+b/n1")).dataDirectory().toString());
    }
}
