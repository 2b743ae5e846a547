package dev.duro.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Hosts behind port publishing, the way Docker publishes a container's ports, made of network namespaces this test
 * creates: each host is a namespace with its own address on a subnet, joined by veth pairs to a bridge in a switch
 * namespace; this JVM's namespace joins the bridge through one more veth pair. nftables in this namespace then
 * translates {@code 127.0.0.1:<published>} to {@code <host address>:<port>} (with the source masqueraded, as
 * Docker does when it publishes without its userland proxy), and drops every other packet this namespace would
 * send to the hosts, so a client here reaches them through the published ports only.
 *
 * <p>Needs root, {@code ip} (iproute2) and {@code nft} (nftables); {@link #unavailable} says what is missing.
 * Closing removes every namespace, link and rule it made; so does a JVM shutdown hook, if the test JVM dies
 * first.
 */
final class PublishedPortsNetwork implements AutoCloseable {
    private final String name;
    private final String subnet;
    private final int hosts;
    private final List<String> publishRules = new ArrayList<>();
    private final Thread cleanUpOnExit = new Thread(this::cleanUp, "published-ports-cleanup");

    /** Why such a network cannot be made here, or null if it can. */
    static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "network namespaces need root (running as " + System.getProperty("user.name") + ")";
        }
        for (String tool : List.of("ip", "nft")) {
            if (!onPath(tool)) {
                return "'" + tool + "' is not installed (.ci/run installs iproute2 and nftables)";
            }
        }
        return null;
    }

    /** Makes {@code hosts} namespaces, addresses {@code <subnet>.11, .12, ...}. */
    PublishedPortsNetwork(int hosts) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        this.name = String.format(Locale.ROOT, "dpp%04x", random.nextInt(1 << 16));
        // Private addresses apart from the Jepsen harness's 10.77.x: a subnet of 10.213.0.0/16 at random.
        this.subnet = "10.213." + random.nextInt(256);
        this.hosts = hosts;
        Runtime.getRuntime().addShutdownHook(cleanUpOnExit);
        try {
            run("ip", "netns", "add", switchNamespace());
            run("ip", "-n", switchNamespace(), "link", "set", "lo", "up");
            run("ip", "-n", switchNamespace(), "link", "add", "br0", "type", "bridge");
            run("ip", "-n", switchNamespace(), "link", "set", "br0", "up");
            // This namespace's leg: the address the published ports' translated packets leave from.
            run("ip", "link", "add", hostLink(), "type", "veth", "peer", "name", name + "-hs");
            run("ip", "link", "set", name + "-hs", "netns", switchNamespace());
            run("ip", "-n", switchNamespace(), "link", "set", name + "-hs", "master", "br0", "up");
            run("ip", "addr", "add", subnet + ".1/24", "dev", hostLink());
            run("ip", "link", "set", hostLink(), "up");
            // Packets from 127.0.0.1, translated to a host's address, may leave on this link (as on Docker's bridge).
            run("sysctl", "-qw", "net.ipv4.conf." + hostLink() + ".route_localnet=1");
            for (int i = 1; i <= hosts; i++) {
                String namespace = namespace(i);
                String link = name + "-" + i;
                run("ip", "netns", "add", namespace);
                run("ip", "-n", namespace, "link", "set", "lo", "up");
                run("ip", "link", "add", link, "type", "veth", "peer", "name", link + "s");
                run("ip", "link", "set", link + "s", "netns", switchNamespace());
                run("ip", "-n", switchNamespace(), "link", "set", link + "s", "master", "br0", "up");
                run("ip", "link", "set", link, "netns", namespace);
                run("ip", "-n", namespace, "addr", "add", address(i) + "/24", "dev", link);
                run("ip", "-n", namespace, "link", "set", link, "up");
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The address of host {@code i} (from 1). */
    String address(int i) {
        return subnet + "." + (10 + i);
    }

    /** The namespace of host {@code i} (from 1). */
    String namespace(int i) {
        return name + "-h" + i;
    }

    /** The command that runs {@code command} on host {@code i}. */
    List<String> onHost(int i, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace(i)));
        full.addAll(command);
        return full;
    }

    /** Publishes {@code <host i>:<port>} at {@code 127.0.0.1:<published>}; call before {@link #applyRules}. */
    void publish(int published, int i, int port) {
        publishRules.add("ip daddr 127.0.0.1 tcp dport " + published + " dnat to " + address(i) + ":" + port);
    }

    /** Installs the translation of every published port and the rule that drops everything else to the hosts. */
    void applyRules() throws IOException {
        StringBuilder rules = new StringBuilder();
        rules.append("table ip ").append(name).append(" {\n");
        rules.append("  chain publish {\n    type nat hook output priority -100; policy accept;\n");
        publishRules.forEach(rule -> rules.append("    ").append(rule).append('\n'));
        rules.append("  }\n");
        rules.append("  chain translate-source {\n    type nat hook postrouting priority 100; policy accept;\n");
        rules.append("    oifname \"").append(hostLink()).append("\" ip saddr 127.0.0.0/8 masquerade\n  }\n");
        rules.append("  chain published-only {\n    type filter hook output priority 0; policy accept;\n");
        rules.append("    oifname \"").append(hostLink()).append("\" ct status dnat accept\n");
        rules.append("    oifname \"").append(hostLink()).append("\" drop\n  }\n");
        rules.append("}\n");
        runWithInput(rules.toString(), "nft", "-f", "-");
    }

    @Override
    public void close() {
        cleanUp();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanUpOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran already
        }
    }

    private synchronized void cleanUp() {
        quietly("nft", "delete", "table", "ip", name);
        quietly("ip", "link", "del", hostLink());
        for (int i = 1; i <= hosts; i++) {
            quietly("ip", "netns", "del", namespace(i));
        }
        quietly("ip", "netns", "del", switchNamespace());
    }

    private String switchNamespace() {
        return name + "-sw";
    }

    private String hostLink() {
        return name + "-h";
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv()
                .getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
                .split(":")) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void run(String... command) throws IOException {
        runWithInput(null, command);
    }

    private static void runWithInput(String input, String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (input != null) {
            process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish in 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted running " + String.join(" ", command), e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + output
                    + (input == null ? "" : "\ninput:\n" + input));
        }
    }

    private static void quietly(String... command) {
        try {
            run(command);
        } catch (IOException ignored) {
            // already gone, or never made
        }
    }
}
