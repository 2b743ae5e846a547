package dev.duro.client.cli;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.ServerErrorException;
import dev.duro.client.UnavailableException;
import dev.duro.core.DuroException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The client side of {@code ./duro}: {@code put}, {@code get}, {@code shell}, {@code demo}, {@code status} and
 * {@code await-ready}. Every command takes {@code --cluster host:port,...} (default: the three nodes of
 * {@code ./duro local}).
 */
public final class DuroCli {
    private static final String DEFAULT_CLUSTER = "127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103";

    /**
     * The tool's own logging configuration, in the shaded jar beside Logback: warnings only, on standard error, so
     * that the client's warnings never mix with the answers on standard output. Not named logback.xml, which an
     * application embedding the client would find on its class path.
     */
    private static final String LOGBACK_CONFIGURATION = "dev/duro/client/cli/logback-cli.xml";

    private DuroCli() {}

    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", LOGBACK_CONFIGURATION);
        }
        if (args.length == 0) {
            fail(
                    "usage: duro (put KEY VALUE | get KEY | shell | demo | status | await-ready) [--cluster host:port,...]");
        }
        String command = args[0];
        String cluster = DEFAULT_CLUSTER;
        List<String> positional = new ArrayList<>();
        int seconds = 20;
        int timeoutSeconds = 60;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--cluster" -> cluster = value(args, ++i, "--cluster");
                case "--seconds" -> seconds = Integer.parseInt(value(args, ++i, "--seconds"));
                case "--timeout-seconds" -> timeoutSeconds = Integer.parseInt(value(args, ++i, "--timeout-seconds"));
                default -> positional.add(args[i]);
            }
        }
        try (DuroClient client = DuroClient.builder().seeds(cluster).build()) {
            int status = run(client, command, positional, seconds, timeoutSeconds, cluster);
            System.exit(status);
        } catch (UnavailableException | ServerErrorException e) {
            fail(e.getMessage());
        } catch (DuroException e) {
            fail(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static int run(
            DuroClient client, String command, List<String> args, int seconds, int timeoutSeconds, String cluster) {
        switch (command) {
            case "put" -> {
                expect(args, 2, "put KEY VALUE");
                client.put(args.get(0), args.get(1));
                System.out.println("OK");
            }
            case "get" -> {
                expect(args, 1, "get KEY");
                String value = client.get(args.get(0));
                if (value == null) {
                    System.err.println("(not found)");
                    return 1;
                }
                System.out.println(value);
            }
            case "shell" -> new Shell(client, System.in, System.out).run();
            case "status" -> {
                return new StatusReport(client.refreshCluster(), client::replicaStatus).print(System.out);
            }
            case "await-ready" -> {
                ClusterView view = client.awaitReady(Duration.ofSeconds(timeoutSeconds));
                System.out.println("duro cluster '" + view.clusterName() + "' ready: " + view.partitionCount()
                        + " partitions, clients on " + cluster);
            }
            case "demo" -> {
                return new Demo(client, Duration.ofSeconds(seconds), System.out).run() ? 0 : 1;
            }
            default -> fail("unknown command '" + command + "'");
        }
        return 0;
    }

    private static String value(String[] args, int index, String flag) {
        if (index >= args.length) {
            fail(flag + " needs a value");
        }
        return args[index];
    }

    private static void expect(List<String> args, int count, String usage) {
        if (args.size() != count) {
            fail("usage: duro " + usage);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void fail(String message) {
        System.err.println("duro: " + message);
        System.exit(2);
    }
}
