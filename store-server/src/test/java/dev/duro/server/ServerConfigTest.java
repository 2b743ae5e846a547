package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {
    /**
     * Fails unless every node's configuration describes the same cluster: its name, nodes and their addresses,
     * placement, partitioner, and the settings that decide outcomes (README, "Configuration").
     */
    static void assertOneCluster(Map<String, ServerConfig> configs) {
        ServerConfig first = configs.values().iterator().next();
        for (Map.Entry<String, ServerConfig> entry : configs.entrySet()) {
            ServerConfig config = entry.getValue();
            String which = entry.getKey() + " and " + first.nodeId();
            assertEquals(first.clusterName(), config.clusterName(), which + " name the same cluster");
            assertEquals(first.nodes(), config.nodes(), which + " list the same nodes at the same addresses");
            assertEquals(first.placement(), config.placement(), which + " place the partitions alike");
            assertEquals(first.partitioner(), config.partitioner(), which + " partition keys alike");
            assertEquals(first.preferredLeaders(), config.preferredLeaders(), which + " prefer the same leaders");
            assertEquals(first.limits(), config.limits(), which + " have the same limits");
            assertEquals(first.engine(), config.engine(), which + " certify alike");
        }
    }

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
    void preferredLeadersAreReadInOrderAndNoneByDefault() {
        assertEquals(List.of(), ServerConfig.of(oneNode("data/n1")).preferredLeaders());
        Properties p = threeNodes();
        p.setProperty("cluster.preferred-leaders", " n3, n1 ");
        assertEquals(List.of("n3", "n1"), ServerConfig.of(p).preferredLeaders());
        p.setProperty("cluster.preferred-leaders", "");
        assertEquals(List.of(), ServerConfig.of(p).preferredLeaders(), "an empty value leaves it to elections");
    }

    @Test
    void preferredLeadersNamingUnknownRepeatedOrEmptyEntriesAreReportedByName() {
        Properties p = threeNodes();
        p.setProperty("cluster.preferred-leaders", "n2,n9,n2,,n1");
        var error = assertThrows(ServerConfig.InvalidConfigException.class, () -> ServerConfig.of(p));
        assertEquals(3, error.problems().size(), error.getMessage());
        assertTrue(
                error.getMessage().contains("cluster.preferred-leaders names 'n9', which is not in cluster.nodes"),
                error.getMessage());
        assertTrue(error.getMessage().contains("cluster.preferred-leaders names n2 twice"), error.getMessage());
        assertTrue(error.getMessage().contains("cluster.preferred-leaders has an empty entry"), error.getMessage());
    }

    private static Properties threeNodes() {
        Properties p = oneNode("data/n1");
        p.setProperty("cluster.nodes", "n1,n2,n3");
        p.setProperty("cluster.replication", "3");
        for (int i = 2; i <= 3; i++) {
            p.setProperty("node.n" + i + ".address", "127.0.0.1:710" + i);
            p.setProperty("node.n" + i + ".raft", "127.0.0.1:720" + i);
        }
        return p;
    }

    @Test
    void aPlainDataDirectoryIsTakenAsGiven() {
        assertEquals(
                "runs/a+b/n1",
                ServerConfig.of(oneNode("runs/a+b/n1")).dataDirectory().toString());
    }

    @Test
    void aNodeIsAdvertisedAtItsAddressAndBindsToItsHostUnlessToldOtherwise() {
        ServerConfig plain = ServerConfig.of(oneNode("data/n1"));
        assertEquals("127.0.0.1:7101", plain.self().advertised().toString());
        assertEquals("127.0.0.1", plain.bindHost());

        Properties p = oneNode("data/n1");
        p.setProperty("node.n1.advertise", "localhost:17101");
        p.setProperty("server.bind-host", "0.0.0.0");
        ServerConfig translated = ServerConfig.of(p);
        assertEquals("localhost:17101", translated.self().advertised().toString());
        assertEquals("127.0.0.1:7101", translated.self().address().toString(), "peers still reach it here");
        assertEquals("0.0.0.0", translated.bindHost());
    }

    @Test
    void aMalformedAdvertisedAddressIsReportedByName() {
        Properties p = oneNode("data/n1");
        p.setProperty("node.n1.advertise", "localhost");
        var error = assertThrows(ServerConfig.InvalidConfigException.class, () -> ServerConfig.of(p));
        assertTrue(error.getMessage().contains("node.n1.advertise"), error.getMessage());
    }

    @Test
    void theRetentionWindowsAreSetPerNode() {
        Properties p = oneNode("data/n1");
        p.setProperty("engine.outcomes-retained", "50");
        p.setProperty("engine.snapshots-retained", "300");
        p.setProperty("engine.buffered-votes-max", "70");
        p.setProperty("certification.window-transactions", "200");
        var engine = ServerConfig.of(p).engine();
        assertEquals(50, engine.outcomesRetained());
        assertEquals(300, engine.snapshotsRetained());
        assertEquals(70, engine.bufferedVotesMax());
        assertEquals(200, engine.certification().windowTransactions());
    }

    @Test
    void aRetentionWindowOutOfRangeIsReportedByNameTogetherWithTheOthers() {
        Properties p = oneNode("data/n1");
        p.setProperty("engine.outcomes-retained", "0");
        p.setProperty("engine.buffered-votes-max", "many");
        p.setProperty("engine.global-commits-retained", "10");
        var error = assertThrows(ServerConfig.InvalidConfigException.class, () -> ServerConfig.of(p));
        assertEquals(3, error.problems().size(), error.getMessage());
        assertTrue(error.getMessage().contains("engine.outcomes-retained must be in [1, 10000000], was 0"));
        assertTrue(error.getMessage().contains("engine.buffered-votes-max is not an integer"));
        assertTrue(error.getMessage().contains("engine.global-commits-retained is not a known setting"));
    }

    @Test
    void theEnvironmentSetsWhatTheFileDoesNotAndTheCommandLineWinsOverIt(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("n1.properties");
        Properties p = oneNode("data/n1");
        p.setProperty("engine.outcomes-retained", "50");
        try (Writer out = Files.newBufferedWriter(file)) {
            p.store(out, null);
        }
        Map<String, String> environment = Map.of(
                "DURO_ENGINE_OUTCOMES_RETAINED", "60", // over the file
                "DURO_SERVER_COMMIT_TIMEOUT_MILLIS", "7000", // over the default
                "DURO_NODE_N1_ADDRESS", "127.0.0.1:9101", // a node's key
                "DURO_RAFT_FSYNC", "false", // the command line wins over it
                "DURO_JAVA_OPTS", "-Xmx2g", // the tools' own: not a setting
                "DURO_JEPSEN_HOME", "/somewhere",
                "PATH", "/bin");
        ServerConfig config = ServerConfig.load(file, environment, Map.of("raft.fsync", "true"));
        assertEquals(60, config.engine().outcomesRetained());
        assertEquals(7000, config.commitTimeout().toMillis());
        assertEquals(new ServerConfig.HostPort("127.0.0.1", 9101), config.self().address());
        assertTrue(config.fsync(), "--set wins over the environment");
        assertEquals(
                "DURO_CERTIFICATION_WINDOW_TRANSACTIONS",
                ConfigParser.environmentName("certification.window-transactions"));
    }

    @Test
    void anEnvironmentVariableNamingNoSettingIsReportedByName(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("n1.properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            oneNode("data/n1").store(out, null);
        }
        var error = assertThrows(
                ServerConfig.InvalidConfigException.class,
                () -> ServerConfig.load(file, Map.of("DURO_ENGINE_OUTCOMES_RETAINED_MAX", "5"), Map.of()));
        assertTrue(
                error.getMessage().contains("environment variable DURO_ENGINE_OUTCOMES_RETAINED_MAX names no setting"),
                error.getMessage());
    }

    @Test
    void theLogFormatIsTextUnlessJsonIsChosenInTheFileOrTheEnvironment(@TempDir Path folder) throws IOException {
        assertEquals("text", ServerConfig.of(oneNode("data/n1")).logFormat());
        Properties json = oneNode("data/n1");
        json.setProperty("log.format", "json");
        assertEquals("json", ServerConfig.of(json).logFormat());

        Path file = folder.resolve("n1.properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            oneNode("data/n1").store(out, null);
        }
        assertEquals(
                "json",
                ServerConfig.load(file, Map.of("DURO_LOG_FORMAT", "json"), Map.of())
                        .logFormat(),
                "DURO_LOG_FORMAT, which logback.xml also reads, is the setting's own variable");
    }

    @Test
    void anUnknownLogFormatIsReportedByName() {
        Properties p = oneNode("data/n1");
        p.setProperty("log.format", "xml");
        var error = assertThrows(ServerConfig.InvalidConfigException.class, () -> ServerConfig.of(p));
        assertTrue(
                error.getMessage().contains("log.format must be one of [text, json], was 'xml'"), error.getMessage());
    }
}
