package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The settings, their defaults and their meanings have one source, {@link Settings}: the README's configuration
 * table is generated from it, and the parser reads exactly the settings it lists.
 */
class ConfigurationTableTest {
    private static final Path README = Path.of("..", "README.md");
    private static final String BEGIN = "<!-- The table between these markers is generated";
    private static final String END = "<!-- end of the generated configuration table -->";

    @Test
    void theReadmesTableIsTheGeneratedOne() throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int begin = readme.indexOf('\n', readme.indexOf(BEGIN)) + 1;
        int end = readme.indexOf(END);
        String generated = Settings.markdownTable();
        if (Boolean.getBoolean("duro.readme.update")) {
            Files.writeString(README, readme.substring(0, begin) + generated + readme.substring(end));
            return;
        }
        assertEquals(
                generated,
                readme.substring(begin, end),
                "README's configuration table differs from Settings.java: rerun this test with"
                        + " -Dduro.readme.update=true to regenerate it");
    }

    @Test
    void theParserReadsExactlyTheSettingsTheTableLists() {
        Properties p = new Properties();
        p.setProperty("cluster.nodes", "n1,n2");
        p.setProperty("cluster.partitions", "2");
        p.setProperty("node.id", "n1");
        for (String node : new String[] {"n1", "n2"}) {
            p.setProperty("node." + node + ".address", "127.0.0.1:" + (node.equals("n1") ? 7101 : 7102));
            p.setProperty("node." + node + ".raft", "127.0.0.1:" + (node.equals("n1") ? 7201 : 7202));
        }
        Set<String> read = ServerConfig.of(p).keysRead().stream()
                .map(key -> key.replaceAll("^node\\.n[12]\\.", "node.<id>.")
                        .replaceAll("^partition\\.[01]\\.", "partition.<p>."))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> listed =
                Settings.ALL.stream().map(Settings.Setting::key).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(listed, read, "every setting the parser reads is in Settings.ALL, and every listed one is read");
    }
}
