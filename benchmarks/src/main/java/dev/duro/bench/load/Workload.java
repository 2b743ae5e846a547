package dev.duro.bench.load;

import java.util.Locale;
import java.util.SplittableRandom;
import javax.annotation.Nullable;

/**
 * The workloads {@code --workload NAME} selects: S-DUR's Table I (A–D), P-DUR's micro-benchmark types and
 * social network, P-Store's TPC-B and YCSB's core mixes. Each turns a {@link KeySpace} into per-client
 * {@link TxSource}s; the classes behind them document their shape. Workloads that keep state in the store
 * (balances, lists) read a missing key as its initial value, so no load phase precedes a run.
 */
public enum Workload {
    A("A", "S-DUR", "4 reads, 4 writes (of keys read), 4 B values", rw(4, 4, 4)),
    B("B", "S-DUR", "2 reads, 2 writes (of keys read), 1 KiB values", rw(2, 2, 1024)),
    C("C", "S-DUR", "8 reads, read-only, 4 B values", rw(8, 0, 4)),
    D("D", "S-DUR", "4 reads, read-only, 1 KiB values", rw(4, 0, 1024)),
    PDUR_1("pdur-1", "P-DUR", "type I: 2 reads, 2 writes (of keys read), 4 B values", rw(2, 2, 4)),
    PDUR_2("pdur-2", "P-DUR", "type II: 32 reads, 2 writes (of keys read), 4 B values", rw(32, 2, 4)),
    PDUR_3("pdur-3", "P-DUR", "type III: 16 reads, 16 writes (of keys read), 4 B values", rw(16, 16, 4)),
    SOCIAL(
            "social",
            "P-DUR",
            "50% timeline (read-only), 40% post, 10% follow (global: --global, 50)",
            50,
            0,
            SocialNetwork::source),
    TPCB(
            "tpcb",
            "P-Store",
            "account, teller, branch += delta, history insert (global: --global, 15)",
            15,
            0,
            TpcB::source),
    YCSB_A("ycsb-a", "YCSB", "50% read, 50% blind update of one key, 1 KiB values, zipf 0.99", 0, 0.99, Ycsb.mix(50)),
    YCSB_B("ycsb-b", "YCSB", "95% read, 5% blind update of one key, 1 KiB values, zipf 0.99", 0, 0.99, Ycsb.mix(5)),
    YCSB_C("ycsb-c", "YCSB", "100% read of one key, zipf 0.99", 0, 0.99, Ycsb.mix(0)),
    YCSB_E(
            "ycsb-e",
            "YCSB",
            "95% scan of 1-100 keys from a zipf 0.99 start, 5% insert of a new key (also --workload E)",
            0,
            0.99,
            Ycsb.scans(5));

    /** Builds one client's transactions. */
    @FunctionalInterface
    interface Generator {
        TxSource source(KeySpace keys, LoadOptions options, SplittableRandom random);
    }

    private final String label;
    private final String paper;
    private final String shape;
    private final int defaultGlobalPercent;
    private final double defaultZipfSkew;
    private final Generator generator;

    Workload(String label, String paper, String shape, Generator generator) {
        this(label, paper, shape, 0, 0, generator);
    }

    Workload(
            String label,
            String paper,
            String shape,
            int defaultGlobalPercent,
            double defaultZipfSkew,
            Generator generator) {
        this.label = label;
        this.paper = paper;
        this.shape = shape;
        this.defaultGlobalPercent = defaultGlobalPercent;
        this.defaultZipfSkew = defaultZipfSkew;
        this.generator = generator;
    }

    private static Generator rw(int reads, int writes, int valueBytes) {
        return new ReadWriteTransactions(reads, writes, valueBytes);
    }

    /** The workload called {@code name} (case-insensitive), as {@code --workload} names it. */
    public static Workload named(String name) {
        if (name.equalsIgnoreCase("E")) {
            return YCSB_E; // YCSB's own name for it; A-D are S-DUR's Table I
        }
        for (Workload workload : values()) {
            if (workload.label.equalsIgnoreCase(name)) {
                return workload;
            }
        }
        throw new IllegalArgumentException("unknown workload " + name + " (--workload list shows them)");
    }

    /** Every workload, one line each: name, source paper, shape. */
    public static String list() {
        StringBuilder out = new StringBuilder();
        for (Workload workload : values()) {
            out.append(String.format(Locale.ROOT, "  %-8s %-8s %s%n", workload.label, workload.paper, workload.shape));
        }
        return out.toString();
    }

    /** The name {@code --workload} takes (and reports print). */
    public String label() {
        return label;
    }

    /** {@code --global} when not given: the share of remote transactions the workload's paper uses. */
    public int defaultGlobalPercent() {
        return defaultGlobalPercent;
    }

    /** {@code --zipf} when not given. */
    public double defaultZipfSkew() {
        return defaultZipfSkew;
    }

    /** The shape of a read-write workload (A-D, the P-DUR types), or null for the others. */
    @Nullable
    ReadWriteTransactions readWriteShape() {
        return generator instanceof ReadWriteTransactions shape ? shape : null;
    }

    /**
     * Whether the Go etcd client runs this workload with {@code zipfSkew}: the read-write workloads, uniform keys
     * ({@link EtcdGoClient}).
     */
    public boolean runsOnGoEtcdClient(double zipfSkew) {
        return readWriteShape() != null && zipfSkew == 0;
    }

    /** Whether some of its transactions scan a range (YCSB E): the client's scans block, unlike its reads. */
    public boolean scans() {
        return this == YCSB_E;
    }

    /** One client's transactions, drawn from {@code random}. */
    public TxSource source(KeySpace keys, LoadOptions options, SplittableRandom random) {
        return generator.source(keys, options, random);
    }

    @Override
    public String toString() {
        return label;
    }
}
