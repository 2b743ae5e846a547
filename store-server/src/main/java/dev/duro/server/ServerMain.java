package dev.duro.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code duro server --config FILE [--set key=value ...]}: runs one node until SIGTERM or Ctrl-C, then shuts
 * down gracefully. The command line is parsed by picocli: {@code --help} prints the usage, and a bad or missing
 * option is refused naming it, with the usage and status 2, as is a configuration the node cannot run with.
 *
 * <p>Nothing may log before the configuration is read: the logging backend configures itself on the first line,
 * from the system properties {@value #LOG_FORMAT_PROPERTY} and {@value #NODE_PROPERTY} that this class sets from
 * the configuration (logback.xml). So this class holds no static logger, and reading the configuration logs
 * nothing.
 */
@Command(
        name = "duro server",
        description = "Runs one node until SIGTERM or Ctrl-C, then shuts it down gracefully. Settings: the README's"
                + " configuration table; a problem with them is reported naming its key, with status 2.")
public final class ServerMain implements Callable<Integer> {
    /** Chooses logback.xml's appender: {@code text} or {@code json} (the setting {@code log.format}). */
    static final String LOG_FORMAT_PROPERTY = "duro.log.format";
    /** The node of lines logged by threads that did not say which node they work for (logback.xml). */
    static final String NODE_PROPERTY = "duro.node";

    /** A bad command line or configuration; the node does not start. */
    static final int BAD_CONFIGURATION = 2;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the node's properties file")
    private Path configFile = Path.of("");

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            converter = Setting.Converter.class,
            description = "overrides one setting of the file (repeatable); wins over the file and DURO_ variables")
    private List<Setting> settings = new ArrayList<>();

    @Option(
            names = "--exit-with-input",
            description = "stops the node gracefully when its standard input closes: run by a process that writes"
                    + " nothing to it, the node then stops when that process dies, even by SIGKILL")
    private boolean exitWithInput;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help and exit")
    private boolean help;

    private final PrintStream err;

    private ServerMain(PrintStream err) {
        this.err = err;
    }

    public static void main(String[] args) {
        int status = commandLine(System.out, System.err).execute(args);
        // A node that served returns 0 once its shutdown hook has closed it, while the JVM is already shutting
        // down; System.exit then would block for good. Only a node that never started has a status to report.
        if (status != 0) {
            System.exit(status);
        }
    }

    /** The command line, with its usage and errors on {@code out} and {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        return new CommandLine(new ServerMain(err))
                .setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true))
                .setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    }

    @Override
    public Integer call() throws Exception {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (Setting setting : settings) {
            overrides.put(setting.key(), setting.value());
        }
        ServerConfig config;
        try {
            config = ServerConfig.load(configFile, overrides);
        } catch (IOException e) {
            return refuse("cannot read " + configFile + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            return refuse(String.valueOf(e.getMessage()));
        }
        String chosen = System.getProperty(LOG_FORMAT_PROPERTY);
        if (chosen != null && !ServerConfig.LOG_FORMATS.contains(chosen)) {
            return refuse("-D" + LOG_FORMAT_PROPERTY + " must be one of " + ServerConfig.LOG_FORMATS + ", was '"
                    + chosen + "'");
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
        if (exitWithInput) {
            whenClosed(System.in, () -> {
                log.info("standard input closed: the process that started this node is gone; shutting down");
                System.exit(0);
            });
        }
        // Tests wait for " ready: " in a node's output (TestCluster).
        log.info(
                "duro node {} ready: clients on {}",
                config.nodeId(),
                config.self().address());
        stopped.await();
        return 0;
    }

    /**
     * Runs {@code then} on a daemon thread once {@code input} ends or fails, after reading and dropping whatever
     * arrives before. A process's standard input ends when every process holding its other end has closed it or
     * died, so a parent that keeps the pipe open and writes nothing to it learns its child of its death this way.
     */
    static Thread whenClosed(InputStream input, Runnable then) {
        Thread watch = new Thread(
                () -> {
                    byte[] dropped = new byte[256];
                    try {
                        while (input.read(dropped) >= 0) {
                            // whatever is written is ignored: only the end matters
                        }
                    } catch (IOException e) {
                        // a broken pipe ends it too
                    }
                    then.run();
                },
                "duro-input-watch");
        watch.setDaemon(true);
        watch.start();
        return watch;
    }

    private int refuse(String message) {
        err.println("duro server: " + message);
        return BAD_CONFIGURATION;
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

    /** One {@code --set key=value}: key and value trimmed, the key not empty, the value possibly empty. */
    record Setting(String key, String value) {
        static final class Converter implements ITypeConverter<Setting> {
            @Override
            public Setting convert(String setting) {
                int equals = setting.indexOf('=');
                if (equals < 0 || setting.substring(0, equals).isBlank()) {
                    throw new TypeConversionException("expects key=value, got '" + setting + "'");
                }
                return new Setting(
                        setting.substring(0, equals).trim(),
                        setting.substring(equals + 1).trim());
            }
        }
    }
}
