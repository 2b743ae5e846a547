package dev.duro.bench.compare;

import dev.duro.bench.load.SystemKind;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One column of the comparison, named as on the command line: {@code duro-PxR} (S-DUR, P partitions of R
 * replicas; {@code duro-1xR} is classical DUR with R replicas), {@code dur-1xN} (classical DUR, N replicas) or
 * {@code etcd-N} (etcd, N members).
 */
public record SystemSpec(String name, SystemKind kind, int partitions, int replicas) {
    private static final Pattern LAYOUT = Pattern.compile("(duro|dur)-(\\d+)x(\\d+)|etcd-(\\d+)");

    public static SystemSpec parse(String text) {
        String name = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = LAYOUT.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "a system is duro-PxR, dur-1xN or etcd-N (e.g. duro-2x3, dur-1x6, etcd-3), not '" + text + "'");
        }
        if (m.group(4) != null) {
            return new SystemSpec(name, SystemKind.ETCD, 1, positive(m.group(4), name));
        }
        int partitions = positive(m.group(2), name);
        int replicas = positive(m.group(3), name);
        if (m.group(1).equals("dur") && partitions != 1) {
            throw new IllegalArgumentException("classical DUR has one partition: dur-1x" + replicas + ", not " + name);
        }
        // Duro with one partition is classical DUR; run it as DUR so that every --global is accepted.
        SystemKind kind = m.group(1).equals("duro") && partitions > 1 ? SystemKind.DURO : SystemKind.DUR;
        return new SystemSpec(name, kind, partitions, replicas);
    }

    private static int positive(String digits, String name) {
        int value = Integer.parseInt(digits);
        if (value < 1 || value > 64) {
            throw new IllegalArgumentException("sizes in " + name + " must be in [1, 64]");
        }
        return value;
    }

    /** Whether the system spreads keys over partitions, so that the % global knob changes its transactions. */
    public boolean partitioned() {
        return kind == SystemKind.DURO;
    }

    /** The load generator's flags that start this system. */
    public List<String> loadFlags() {
        return List.of(
                "--system",
                kind.name().toLowerCase(Locale.ROOT),
                "--partitions",
                Integer.toString(partitions),
                "--replicas",
                Integer.toString(replicas));
    }

    /** A phrase for reports, e.g. "S-DUR, 2 partitions x 3 replicas". */
    public String describe() {
        return switch (kind) {
            case DURO -> "Duro (S-DUR), " + partitions + " partitions x " + replicas + " replicas";
            case DUR -> "classical DUR (Duro, 1 partition), " + (partitions * replicas) + " replicas";
            case ETCD -> "etcd " + replicas + " members (Go client, compare-mod-revision Txn)";
        };
    }
}
