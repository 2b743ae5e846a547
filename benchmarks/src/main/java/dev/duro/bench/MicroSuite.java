package dev.duro.bench;

import dev.duro.bench.load.CommandLines;
import dev.duro.bench.load.StoreJvmOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./duro bench micro [regex] [JMH options]}: runs the JMH suite (every benchmark, or those matching the
 * regex) with defaults sized for a small machine, writes JMH's JSON and a Markdown table of its own to
 * {@code benchmarks/results/<timestamp>-micro/}, and prints the table.
 *
 * <p>Defaults, each replaced by the matching JMH option when given: one fork, 2 warmup iterations of 1 s, 3
 * measured iterations of 1 s. The default suite takes about five minutes on two cores; its numbers are for
 * ratios within one run, not for comparing machines.
 */
final class MicroSuite {
    private static final int DEFAULT_FORKS = 1;
    private static final int DEFAULT_WARMUP_ITERATIONS = 2;
    private static final int DEFAULT_MEASUREMENT_ITERATIONS = 3;
    private static final TimeValue DEFAULT_ITERATION_TIME = TimeValue.seconds(1);

    private MicroSuite() {}

    /**
     * {@code ./duro bench micro}: every argument goes to JMH as given ({@link BenchMain} lets options through as
     * arguments), so JMH's own options, help ({@code -h}) and errors apply.
     */
    @Command(
            name = "micro",
            description = "the JMH microbenchmarks: [regex] [JMH options] (micro -h lists JMH's options)")
    static final class MicroCommand implements Callable<Integer> {
        private final PrintStream console;

        @Parameters(paramLabel = "JMH-ARGUMENT", description = "a benchmark regex or a JMH option")
        private List<String> jmhArguments = new ArrayList<>();

        MicroCommand(PrintStream console) {
            this.console = console;
        }

        /** The arguments for JMH, in the order given. */
        List<String> jmhArguments() {
            return List.copyOf(jmhArguments);
        }

        @Spec
        @Nullable
        private CommandSpec spec;

        @Override
        public Integer call() throws IOException, RunnerException {
            if (spec != null) {
                CommandLines.refuseParentOptions(spec);
            }
            return run(jmhArguments.toArray(new String[0]), console);
        }
    }

    /** Returns the process exit status. */
    static int run(String[] args, PrintStream out) throws IOException, RunnerException {
        CommandLineOptions cli;
        try {
            cli = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("duro bench micro: " + e.getMessage());
            return 2;
        }
        if (cli.shouldHelp() || cli.shouldList() || cli.shouldListWithParams() || cli.shouldListProfilers()) {
            org.openjdk.jmh.Main.main(args); // JMH answers these itself and exits
            return 0;
        }
        ChainedOptionsBuilder options = options(cli, StoreJvmOptions.forThisMachine());
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        Path directory = Path.of("benchmarks", "results", stamp + "-micro");
        Files.createDirectories(directory);
        Path json = directory.resolve("micro.json");
        if (!cli.getResultFormat().hasValue() && !cli.getResult().hasValue()) {
            options.resultFormat(ResultFormatType.JSON).result(json.toString());
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        String table = table(results);
        Files.writeString(directory.resolve("micro.md"), table, StandardCharsets.UTF_8);
        out.println();
        out.print(table);
        out.println();
        out.println("results: " + directory);
        return 0;
    }

    /**
     * The suite's options for {@code cli}: its defaults where the command line gives none, and for the forks' JVMs
     * {@code store}, the options of a JVM that holds a store as the nodes run ({@link StoreJvmOptions}: the forks hold
     * stores of up to a million keys), then those given with {@code -jvmArgsAppend}, which come after and so win
     * ({@code -XX:-UseTransparentHugePages} turns huge pages off).
     */
    static ChainedOptionsBuilder options(CommandLineOptions cli, List<String> store) {
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cli);
        if (!cli.getForkCount().hasValue()) {
            options.forks(DEFAULT_FORKS);
        }
        if (!cli.getWarmupIterations().hasValue()) {
            options.warmupIterations(DEFAULT_WARMUP_ITERATIONS);
        }
        if (!cli.getWarmupTime().hasValue()) {
            options.warmupTime(DEFAULT_ITERATION_TIME);
        }
        if (!cli.getMeasurementIterations().hasValue()) {
            options.measurementIterations(DEFAULT_MEASUREMENT_ITERATIONS);
        }
        if (!cli.getMeasurementTime().hasValue()) {
            options.measurementTime(DEFAULT_ITERATION_TIME);
        }
        List<String> append = new ArrayList<>(store);
        if (cli.getJvmArgsAppend().hasValue()) {
            append.addAll(cli.getJvmArgsAppend().get());
        }
        if (!append.isEmpty()) {
            options.jvmArgsAppend(append.toArray(new String[0]));
        }
        return options;
    }

    /** A Markdown table: one row per benchmark and parameter combination, in run order. */
    static String table(Collection<RunResult> results) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"benchmark", "params", "score", "± error", "unit", "derived"});
        for (RunResult result : results) {
            BenchmarkParams params = result.getParams();
            Result<?> primary = result.getPrimaryResult();
            String benchmark = params.getBenchmark();
            benchmark = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
            List<String> values = new ArrayList<>();
            for (String key : params.getParamsKeys()) {
                values.add(key + "=" + params.getParam(key));
            }
            rows.add(new String[] {
                benchmark,
                String.join(" ", values),
                number(primary.getScore()),
                number(primary.getScoreError()),
                primary.getScoreUnit(),
                derived(benchmark, primary.getScore(), primary.getScoreUnit())
            });
        }
        return markdown(rows);
    }

    /**
     * Transactions per second for the engine benchmarks (one operation is one transaction), nanoseconds per
     * transaction for a log entry (several per operation), nanoseconds per operation for the rest.
     */
    static String derived(String benchmark, double score, String unit) {
        double nanosPerOperation = nanosPerOperation(score, unit);
        if (Double.isNaN(nanosPerOperation)) {
            return "";
        }
        if (benchmark.startsWith("CertifyAndFinishBenchmark.")) {
            return number(1e9 / nanosPerOperation) + " tx/s";
        }
        if (benchmark.endsWith("LogEntry")) {
            return number(nanosPerOperation / ReplyAndLogCodecBenchmark.ENTRY_COMMANDS) + " ns/tx";
        }
        return number(nanosPerOperation) + " ns/op";
    }

    /** Converts a throughput ({@code ops/<unit>}) or a time per operation ({@code <unit>/op}); NaN otherwise. */
    static double nanosPerOperation(double score, String unit) {
        if (unit.startsWith("ops/")) {
            TimeUnit per = timeUnit(unit.substring(4));
            return per == null || score <= 0 ? Double.NaN : per.toNanos(1) / score;
        }
        if (unit.endsWith("/op")) {
            TimeUnit per = timeUnit(unit.substring(0, unit.length() - 3));
            return per == null ? Double.NaN : score * per.toNanos(1);
        }
        return Double.NaN;
    }

    private static @Nullable TimeUnit timeUnit(String label) {
        return switch (label) {
            case "s" -> TimeUnit.SECONDS;
            case "ms" -> TimeUnit.MILLISECONDS;
            case "us" -> TimeUnit.MICROSECONDS;
            case "ns" -> TimeUnit.NANOSECONDS;
            default -> null;
        };
    }

    /** Three significant digits at most, thousands separated: readable in a table, honest about the noise. */
    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "-";
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 100) {
            double scale = Math.pow(10, Math.floor(Math.log10(magnitude)) - 2);
            return String.format(Locale.ROOT, "%,.0f", Math.round(value / scale) * scale);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String markdown(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            text.append('|');
            for (int c = 0; c < columns; c++) {
                // Numbers right-aligned, text left-aligned.
                boolean right = c == 2 || c == 3 || c == 5;
                String cell = rows.get(r)[c];
                String pad = " ".repeat(widths[c] - cell.length());
                text.append(' ').append(right ? pad + cell : cell + pad).append(" |");
            }
            text.append('\n');
            if (r == 0) {
                text.append('|');
                for (int c = 0; c < columns; c++) {
                    boolean right = c == 2 || c == 3 || c == 5;
                    text.append(' ')
                            .append("-".repeat(widths[c] - 1))
                            .append(right ? ":" : "-")
                            .append(" |");
                }
                text.append('\n');
            }
        }
        return text.toString();
    }
}
