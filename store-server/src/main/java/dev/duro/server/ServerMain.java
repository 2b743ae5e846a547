package dev.duro.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * {@code duro server --config FILE [--set key=value ...]}: runs one node until SIGTERM or Ctrl-C, then shuts
 * down gracefully.
 *
 * <p>Nothing may log before the configuration is read: the logging backend configures itself on the first line,
 * from the system properties {@value #LOG_FORMAT_PROPERTY} and {@value #NODE_PROPERTY} that this class sets from
 * the configuration (logback.xml). So this class holds no static logger, and reading the configuration logs
 * nothing.
 */
public final class ServerMain {
    /** Chooses logback.xml's appender: {@code text} or {@code json} (the setting {@code log.format}). */
    static final String LOG_FORMAT_PROPERTY = "duro.log.format";
    /** The node of lines logged by threads that did not say which node they work for (logback.xml). */
    static final String NODE_PROPERTY = "duro.node";

    private ServerMain() {}

    public static void main(String[] args) throws Exception {
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
        String chosen = System.getProperty(LOG_FORMAT_PROPERTY);
        if (chosen != null && !ServerConfig.LOG_FORMATS.contains(chosen)) {
            exit("-D" + LOG_FORMAT_PROPERTY + " must be one of " + ServerConfig.LOG_FORMATS + ", was '" + chosen + "'");
        }
        configureLogging(config);
        Logger log = LoggerFactory.getLogger(ServerMain.class);
        DuroServer server = DuroServer.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (IOException | RuntimeException e) {
                                log.warn("shutdown failed", e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "duro-shutdown"));
        // Tests wait for " ready: " in a node's output (TestCluster).
        log.info(
                "duro node {} ready: clients on {}",
                config.nodeId(),
                config.self().address());
        stopped.await();
    }

    /**
     * Tells logback.xml the format and the process's node before the first line is logged, and routes
     * java.util.logging (gRPC inside Ratis) into SLF4J so that its lines have the same format. A JVM started with
     * {@code -Dduro.log.format} keeps that format.
     */
    static void configureLogging(ServerConfig config) {
        if (System.getProperty(LOG_FORMAT_PROPERTY) == null) {
            System.setProperty(LOG_FORMAT_PROPERTY, config.logFormat());
        }
        System.setProperty(NODE_PROPERTY, config.nodeId());
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
    }

    private static void exit(String message) {
        System.err.println("duro server: " + message);
        System.exit(2);
    }
}
