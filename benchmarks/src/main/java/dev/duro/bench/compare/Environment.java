package dev.duro.bench.compare;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Where and from what a comparison ran: the machine, the JVM, the commit and the command line. */
public record Environment(
        String started,
        int cores,
        String cpuModel,
        String memory,
        String operatingSystem,
        String java,
        String gitCommit,
        String gitTree,
        String commandLine) {
    public static Environment collect(List<String> args) {
        return new Environment(
                ZonedDateTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                Runtime.getRuntime().availableProcessors(),
                readCpuModel(),
                readMemory(),
                readOperatingSystem(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                git("rev-parse", "HEAD").orElse("unknown (not a git checkout)"),
                git("status", "--porcelain")
                        .map(status -> status.isBlank() ? "clean" : "dirty (uncommitted changes)")
                        .orElse("unknown"),
                ("./duro bench compare " + String.join(" ", args)).strip());
    }

    private static String readCpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String readMemory() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        String machine = os instanceof com.sun.management.OperatingSystemMXBean sun
                ? String.format(Locale.ROOT, "%.1f GiB", sun.getTotalMemorySize() / (double) (1L << 30))
                : "unknown";
        return String.format(
                Locale.ROOT,
                "%s (JVM max heap %.1f GiB)",
                machine,
                Runtime.getRuntime().maxMemory() / (double) (1L << 30));
    }

    private static String readOperatingSystem() {
        String kernel = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
        try {
            return Files.readAllLines(Path.of("/etc/os-release"), StandardCharsets.UTF_8).stream()
                    .filter(line -> line.startsWith("PRETTY_NAME="))
                    .map(line -> line.substring("PRETTY_NAME=".length()).replace("\"", "") + ", " + kernel)
                    .findFirst()
                    .orElse(kernel);
        } catch (IOException e) {
            return kernel;
        }
    }

    private static Optional<String> git(String... args) {
        try {
            List<String> command = new ArrayList<>(List.of("git"));
            command.addAll(List.of(args));
            Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = git.getInputStream().readAllBytes();
            if (!git.waitFor(10, TimeUnit.SECONDS) || git.exitValue() != 0) {
                return Optional.empty();
            }
            return Optional.of(new String(output, StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
