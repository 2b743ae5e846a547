package dev.duro.consensus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.impl.RatisMetricRegistryImpl;
import org.apache.ratis.thirdparty.com.codahale.metrics.Counter;
import org.apache.ratis.thirdparty.com.codahale.metrics.Gauge;
import org.apache.ratis.thirdparty.com.codahale.metrics.Histogram;
import org.apache.ratis.thirdparty.com.codahale.metrics.Meter;
import org.apache.ratis.thirdparty.com.codahale.metrics.Metric;
import org.apache.ratis.thirdparty.com.codahale.metrics.Snapshot;
import org.apache.ratis.thirdparty.com.codahale.metrics.Timer;

/**
 * Ratis's own metrics of one node, read from Ratis's registries and handed out as plain families of samples, so
 * the server can publish them beside its own without seeing a Ratis type (docs/architecture.md §11).
 *
 * <p>Ratis keeps one registry per component and group member ({@code server}, {@code log_worker},
 * {@code leader_election}, {@code state_machine}, {@code log_appender}, named {@code node@group-…}) and one per
 * node for its gRPC services, all in one process-wide set that every node of a JVM shares. This node's are picked
 * by their member id; a group becomes a {@code partition} label. Metric names become Prometheus names:
 * {@code ratis_<component>_<snake_case name>}; a peer id inside a name ({@code follower_n2_match_index},
 * {@code n2_peerCommitIndex}) becomes a {@code peer} label, and the gRPC counters get {@code service},
 * {@code method} and {@code status} labels. Counters and meters are counters, gauges with a number are gauges,
 * timers are summaries in seconds (median, 99th percentile and count, from Ratis's decaying reservoirs) and
 * histograms summaries without a unit. Ratis gives no descriptions: the help text names Ratis's own metric.
 */
public final class RaftMetrics {
    /** How a family's samples are read, as Prometheus's {@code # TYPE} says. */
    public enum Type {
        COUNTER,
        GAUGE,
        SUMMARY
    }

    /**
     * One value of a family.
     *
     * @param suffix appended to the family's name: empty, or {@code _count} for a summary's count
     * @param labels in order; a summary's quantiles carry {@code quantile}
     */
    public record Sample(String suffix, Map<String, String> labels, double value) {
        public Sample {
            labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        }
    }

    /** Every sample of one metric name, with its type and help. */
    public record Family(String name, Type type, String help, List<Sample> samples) {
        public Family {
            samples = List.copyOf(samples);
        }
    }

    private static final Pattern GRPC_CALLS =
            Pattern.compile("ratis\\.grpc\\.([A-Za-z]+)_([A-Za-z]+)_(?:([A-Z_]+)_)?(started|completed)_total");
    private static final String[] QUANTILES = {"0.5", "0.99"};

    private final String nodeId;
    private final RaftTopology topology;

    RaftMetrics(String nodeId, RaftTopology topology) {
        this.nodeId = nodeId;
        this.topology = topology;
    }

    /** A reading of every Ratis metric of this node, ordered by name. */
    public List<Family> collect() {
        Map<String, Building> families = new TreeMap<>();
        for (RatisMetricRegistry registry : MetricRegistries.global().getMetricRegistries()) {
            if (!(registry instanceof RatisMetricRegistryImpl impl)) {
                continue;
            }
            MetricRegistryInfo info = registry.getMetricRegistryInfo();
            String component = info.getMetricsComponentName();
            Map<String, String> labels = new LinkedHashMap<>();
            if (!owned(info.getPrefix(), labels)) {
                continue;
            }
            String namePrefix = info.getApplicationName() + "." + component + "." + info.getPrefix() + ".";
            impl.getDropWizardMetricRegistry().getMetrics().forEach((fullName, metric) -> {
                if (fullName.startsWith(namePrefix)) {
                    String ratisName = fullName.substring(namePrefix.length());
                    add(families, component, ratisName, new LinkedHashMap<>(labels), metric);
                }
            });
        }
        List<Family> read = new ArrayList<>(families.size());
        families.forEach((name, f) -> read.add(new Family(name, f.type(), f.help(), f.samples())));
        return read;
    }

    /**
     * Whether a registry named {@code prefix} is this node's: the member id ({@code node@group-…}) of one of its
     * partitions' groups, whose partition then goes into {@code labels}, or the node's id itself.
     */
    private boolean owned(String prefix, Map<String, String> labels) {
        if (prefix.equals(nodeId)) {
            return true;
        }
        for (int partition = 0; partition < topology.partitionCount(); partition++) {
            if (prefix.equals(nodeId + "@" + topology.groupId(partition))) {
                labels.put("partition", Integer.toString(partition));
                return true;
            }
        }
        return false; // another node's, Ratis's empty bootstrap group's, or a client's
    }

    private void add(
            Map<String, Building> families,
            String component,
            String ratisName,
            Map<String, String> labels,
            Metric metric) {
        String base = stripPeer(ratisName, labels);
        Matcher grpc = GRPC_CALLS.matcher(base);
        if (grpc.matches()) {
            labels.remove("peer"); // the node's own id: these are the calls it serves
            labels.put("service", grpc.group(1));
            labels.put("method", grpc.group(2));
            if (grpc.group(3) != null) {
                labels.put("status", grpc.group(3));
            }
            base = "grpc_calls_" + grpc.group(4);
        }
        String name = "ratis_" + snake(component) + "_" + snake(base);
        String help = "Ratis's " + component + " metric " + base;
        if (metric instanceof Counter counter) {
            family(families, counted(name), Type.COUNTER, help).add(new Sample("", labels, counter.getCount()));
        } else if (metric instanceof Meter meter) {
            family(families, counted(name), Type.COUNTER, help).add(new Sample("", labels, meter.getCount()));
        } else if (metric instanceof Timer timer) {
            summary(
                    family(families, name + "_seconds", Type.SUMMARY, help),
                    labels,
                    timer.getSnapshot(),
                    timer.getCount(),
                    TimeUnit.SECONDS.toNanos(1));
        } else if (metric instanceof Histogram histogram) {
            summary(
                    family(families, name, Type.SUMMARY, help),
                    labels,
                    histogram.getSnapshot(),
                    histogram.getCount(),
                    1);
        } else if (metric instanceof Gauge<?> gauge && gauge.getValue() instanceof Number number) {
            family(families, name, Type.GAUGE, help).add(new Sample("", labels, number.doubleValue()));
        }
    }

    /**
     * Takes a peer id out of a Ratis metric name into a {@code peer} label: {@code follower_n2_match_index} is
     * {@code follower_match_index} for peer n2, {@code n2_peerCommitIndex} is {@code peerCommitIndex}.
     */
    private String stripPeer(String ratisName, Map<String, String> labels) {
        for (String peer : topology.raftAddresses().keySet()) {
            for (String head : new String[] {"", "follower_"}) {
                if (ratisName.startsWith(head + peer + "_")) {
                    labels.put("peer", peer);
                    return head + ratisName.substring(head.length() + peer.length() + 1);
                }
            }
        }
        return ratisName;
    }

    private static void summary(
            List<Sample> samples, Map<String, String> labels, Snapshot snapshot, long count, double perUnit) {
        for (String quantile : QUANTILES) {
            Map<String, String> withQuantile = new LinkedHashMap<>(labels);
            withQuantile.put("quantile", quantile);
            samples.add(new Sample("", withQuantile, snapshot.getValue(Double.parseDouble(quantile)) / perUnit));
        }
        samples.add(new Sample("_count", labels, count));
    }

    /** A family while its samples are gathered. */
    private record Building(Type type, String help, List<Sample> samples) {}

    /**
     * The samples of family {@code name}, made on first use. A name already taken by another type keeps its first
     * family; the later metric's samples go to a list nobody reads rather than into a family they would corrupt.
     */
    private static List<Sample> family(Map<String, Building> families, String name, Type type, String help) {
        Building family = families.computeIfAbsent(name, n -> new Building(type, help, new ArrayList<>()));
        return family.type() == type ? family.samples() : new ArrayList<>();
    }

    private static String counted(String name) {
        return name.endsWith("_total") ? name : name + "_total";
    }

    /** {@code numWatch-ALL_COMMITTEDRequestTimeout} → {@code num_watch_all_committed_request_timeout}. */
    static String snake(String name) {
        String words = name.replaceAll("[^A-Za-z0-9]+", "_")
                .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2");
        return words.toLowerCase(Locale.ROOT).replaceAll("_+", "_").replaceAll("^_|_$", "");
    }
}
