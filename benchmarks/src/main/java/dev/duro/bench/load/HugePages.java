package dev.duro.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.annotation.Nullable;

/**
 * Transparent huge pages for the JVMs that hold a store: the nodes, as {@code ./duro} starts them, and the JMH forks of
 * the micro suite. A store of a million keys is read at random over hundreds of megabytes, and with 4 KiB pages most of
 * those reads miss the TLB as well as the caches; in 2 MiB pages the page walk mostly hits (docs/performance.md,
 * "Huge pages for the store's JVMs"). Only on Linux, where the JVM has the flag, and only where the kernel offers them
 * (under {@code never} the flag would change nothing).
 */
public final class HugePages {
    /** The JVM option that asks the kernel for huge pages for the heap. */
    public static final String OPTION = "-XX:+UseTransparentHugePages";

    private static final Path MODE = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    private HugePages() {}

    /** Whether this machine offers transparent huge pages to a JVM that asks ({@link #OPTION}). */
    public static boolean offered() {
        return offered(System.getProperty("os.name", ""), readMode());
    }

    /**
     * Whether a JVM on {@code osName} may ask for huge pages, given the kernel's mode line ({@code null} if there is
     * none; e.g. {@code always [madvise] never}, the selected mode in brackets).
     */
    static boolean offered(String osName, @Nullable String modeLine) {
        return osName.toLowerCase(Locale.ROOT).startsWith("linux")
                && modeLine != null
                && (modeLine.contains("[always]") || modeLine.contains("[madvise]"));
    }

    @Nullable
    private static String readMode() {
        try {
            return Files.isReadable(MODE) ? Files.readString(MODE, StandardCharsets.US_ASCII) : null;
        } catch (IOException e) {
            return null; // no way to tell: leave the JVM's default
        }
    }
}
