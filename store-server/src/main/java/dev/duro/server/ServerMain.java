package dev.duro.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code duro server --config FILE [--set key=value ...]}: runs one node until SIGTERM or Ctrl-C, then shuts
 * down gracefully.
 */
public final class ServerMain {
    /**
     * gRPC (inside Ratis) logs through java.util.logging and announces its transport at INFO on every start;
     * keep that logger at WARNING. A strong reference keeps the level from being garbage-collected away.
     */
    private static final java.util.logging.Logger GRPC_LOG =
            java.util.logging.Logger.getLogger("org.apache.ratis.thirdparty.io.grpc");

    private ServerMain() {}

    public static void main(String[] args) throws Exception {
        GRPC_LOG.setLevel(java.util.logging.Level.WARNING);
        Path configFile = null;
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--config") && i + 1 < args.length) {
                configFile = Path.of(args[++i]);
            } else if (arg.equals("--set") && i + 1 < args.length) {
                String setting = args[++i];
                int equals = setting.indexOf('=');
                if (equals <= 0) {
                    exit("--set expects key=value, got '" + setting + "'");
                }
                overrides.put(
                        setting.substring(0, equals).trim(),
                        setting.substring(equals + 1).trim());
            } else if (arg.equals("--help") || arg.equals("-h")) {
                System.out.println("usage: duro server --config FILE [--set key=value ...]");
                return;
            } else {
                exit("unknown argument '" + arg + "' (usage: duro server --config FILE [--set key=value ...])");
            }
        }
        if (configFile == null) {
            exit("missing --config FILE");
        }
        ServerConfig config;
        try {
            config = ServerConfig.load(configFile, overrides);
        } catch (IOException e) {
            exit("cannot read " + configFile + ": " + e.getMessage());
            return;
        } catch (IllegalArgumentException e) {
            exit(e.getMessage());
            return;
        }
        DuroServer server = DuroServer.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (IOException | RuntimeException e) {
                                System.err.println("shutdown: " + e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "duro-shutdown"));
        System.out.println("duro node " + config.nodeId() + " ready: clients on "
                + config.self().address());
        stopped.await();
    }

    private static void exit(String message) {
        System.err.println("duro server: " + message);
        System.exit(2);
    }
}
