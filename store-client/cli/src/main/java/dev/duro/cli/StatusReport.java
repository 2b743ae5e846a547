package dev.duro.cli;

import dev.duro.client.ClusterView;
import dev.duro.core.DuroException;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ReplicaStatusReply;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * {@code ./duro status}: every partition's replicas as they report themselves, in one table per partition, and
 * whether the replicas agree.
 *
 * <p>Replicas that applied the same log have the same SC and the same content digest, so two replicas at the same
 * SC with different digests have diverged: that is reported as such and makes the command exit with 1. Replicas
 * at different SCs are still catching up ("converging"); their digests cannot be compared. Lag is how far a
 * replica's applied index trails the highest commit index any replica of its group reported.
 */
final class StatusReport {
    /** The exit status when a partition's replicas diverged. */
    static final int DIVERGED = 1;

    private final ClusterView view;
    private final BiFunction<HostPort, Integer, ReplicaStatusReply> ask;

    /** @param ask asks one node for its replica of one partition; a {@link DuroException} means no answer */
    StatusReport(ClusterView view, BiFunction<HostPort, Integer, ReplicaStatusReply> ask) {
        this.view = view;
        this.ask = ask;
    }

    /** Prints the report; returns 0, or {@link #DIVERGED} if replicas of some partition diverged. */
    int print(PrintStream out) {
        int partitions = view.partitionCount();
        out.println(
                "cluster " + view.clusterName() + ": " + partitions + (partitions == 1 ? " partition" : " partitions"));
        int status = 0;
        for (int p = 0; p < partitions; p++) {
            List<HostPort> replicas = view.replicas(p);
            List<ReplicaStatusReply> answers = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            for (HostPort replica : replicas) {
                try {
                    answers.add(ask.apply(replica, p));
                    failures.add(null);
                } catch (DuroException e) {
                    failures.add(e.getMessage());
                }
            }
            Verdict verdict = verdict(answers);
            if (verdict.diverged()) {
                status = DIVERGED;
            }
            out.println();
            out.println("partition " + p + ": " + leaderLine(answers) + "; " + verdict.text());
            out.println(String.format(
                    Locale.ROOT,
                    "  %-8s %-21s %-9s %5s %9s %9s %6s %9s %7s  %s",
                    "replica",
                    "address",
                    "role",
                    "term",
                    "commit",
                    "applied",
                    "lag",
                    "SC",
                    "pending",
                    "digest"));
            long commitMax = answers.stream()
                    .mapToLong(ReplicaStatusReply::commitIndex)
                    .max()
                    .orElse(-1);
            int next = 0;
            for (int i = 0; i < replicas.size(); i++) {
                String failure = failures.get(i);
                out.println(
                        failure == null
                                ? row(replicas.get(i), answers.get(next++), commitMax)
                                : String.format(
                                        Locale.ROOT, "  %-8s %-21s unreachable: %s", "?", replicas.get(i), failure));
            }
        }
        return status;
    }

    private static String row(HostPort address, ReplicaStatusReply r, long commitMax) {
        String role = r.leaderKnown() ? (r.leader().equals(r.node()) ? "leader" : "follower") : "no-leader";
        return String.format(
                Locale.ROOT,
                "  %-8s %-21s %-9s %5d %9d %9d %6d %9d %7d  %016x",
                r.node(),
                address,
                role,
                r.term(),
                r.commitIndex(),
                r.appliedIndex(),
                Math.max(0, commitMax - r.appliedIndex()),
                r.snapshotCounter(),
                r.pendingCount(),
                r.contentDigest());
    }

    private static String leaderLine(List<ReplicaStatusReply> answers) {
        ReplicaStatusReply newest = null;
        for (ReplicaStatusReply r : answers) {
            if (r.leaderKnown() && (newest == null || r.term() > newest.term())) {
                newest = r;
            }
        }
        return newest == null
                ? "NO LEADER known to any replica"
                : "leader " + newest.leader() + " (term " + newest.term() + ")";
    }

    record Verdict(boolean diverged, String text) {}

    /** Whether the answers agree: equal SCs must have equal digests. */
    static Verdict verdict(List<ReplicaStatusReply> answers) {
        if (answers.isEmpty()) {
            return new Verdict(false, "no replica answered");
        }
        for (int i = 0; i < answers.size(); i++) {
            for (int j = i + 1; j < answers.size(); j++) {
                ReplicaStatusReply a = answers.get(i);
                ReplicaStatusReply b = answers.get(j);
                if (a.snapshotCounter() == b.snapshotCounter() && a.contentDigest() != b.contentDigest()) {
                    return new Verdict(
                            true,
                            "DIVERGED: " + a.node() + " and " + b.node() + " hold different data at SC "
                                    + a.snapshotCounter());
                }
            }
        }
        long low = answers.stream()
                .mapToLong(ReplicaStatusReply::snapshotCounter)
                .min()
                .orElseThrow();
        long high = answers.stream()
                .mapToLong(ReplicaStatusReply::snapshotCounter)
                .max()
                .orElseThrow();
        if (answers.size() == 1) {
            return new Verdict(false, "only 1 replica answered, at SC " + high);
        }
        return new Verdict(
                false,
                low == high
                        ? answers.size() + " replicas agree at SC " + high
                        : answers.size() + " replicas converging, SC " + low + " to " + high);
    }
}
