package dev.duro.core.sim;

import dev.duro.core.KeyRange;
import dev.duro.core.Outcome;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.StoreEntry;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.store.ScanResult;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A client running transactions one after another (S-DUR Algorithm 3). Reads go to a random live replica; the
 * first read at a partition fixes the snapshot there, and later reads there only go to replicas that have
 * reached it. The first read also respects the client's session (docs/architecture.md §2, {@code minVersion}): it only goes
 * to a replica that has applied the client's own last committed write there, so the client reads its own
 * writes. A declared read-only transaction instead fixes every snapshot from the tracker's consistent cut.
 * At commit the client broadcasts one request per participant, one partition after the other, and may crash
 * in between; it takes the first reply that reaches it and retries the commit if none comes.
 */
final class Client {
    /** How long a read may wait for a replica to catch up before the run is declared stuck. */
    private static final long READ_WAIT_MAX_MILLIS = 30_000;

    private final long id;
    private final SimulationContext context;
    private final List<ClientTransaction> transactions = new ArrayList<>();
    /** The session token: per partition, the version of this client's newest committed write there. */
    private final long[] session;

    private long sequence;
    private boolean crashed;
    private boolean finished;
    private @Nullable ClientTransaction current;
    private int nextStep;
    private long readWaitingSince = -1;

    Client(long id, SimulationContext context) {
        this.id = id;
        this.context = context;
        this.session = new long[context.config().partitions()];
    }

    long id() {
        return id;
    }

    void start(long delay) {
        context.scheduler().after(delay, this::begin);
    }

    List<ClientTransaction> transactions() {
        return transactions;
    }

    /** Crashed, or out of transactions to run. */
    boolean done() {
        return crashed || finished;
    }

    /** Whether this client is still waiting for the outcome of {@code tid}. */
    boolean awaits(TxId tid) {
        return !crashed
                && current != null
                && current.tid().equals(tid)
                && !current.plan().declaredReadOnly()
                && current.clientOutcome() == null
                && !current.toldUnknown();
    }

    private void begin() {
        if (crashed) {
            return;
        }
        TransactionPlan plan = context.workload().next();
        if (plan == null) {
            finished = true;
            current = null;
            return;
        }
        ClientTransaction transaction = new ClientTransaction(new TxId(id, ++sequence), plan);
        transaction.began(context.scheduler().now(), session);
        if (plan.kind() == TransactionPlan.Kind.READ_ONLY_AT_CUT
                && context.dice().chance(0.5)) {
            // Linearizable: its cut must cover what each partition's log held when it began (a ReadIndex).
            transaction.makeLinearizable(
                    context.config().mutation() == Mutation.LINEARIZABLE_WITHOUT_READ_INDEX
                            ? new long[session.length]
                            : context.cluster().deliveredCounters());
        }
        current = transaction;
        transactions.add(transaction);
        nextStep = 0;
        context.trace().log(() -> "client " + id + " begins " + Trace.name(transaction.tid()) + " " + plan.kind());
        context.scheduler().after(context.dice().millis(0, 3), () -> step(transaction));
    }

    private void beginNextLater() {
        current = null;
        context.scheduler().after(context.dice().millis(0, 10), this::begin);
    }

    // ---- execution ----

    private void step(ClientTransaction transaction) {
        if (transaction != current || crashed) {
            return;
        }
        List<TransactionPlan.Step> steps = transaction.plan().steps();
        if (nextStep == steps.size()) {
            finishReads(transaction);
            return;
        }
        if (transaction.plan().kind() == TransactionPlan.Kind.READ_ONLY_AT_CUT && !transaction.hasSnapshots()) {
            long[] cut = context.config().mutation() == Mutation.READ_ONLY_WITHOUT_CUT
                    ? latestSnapshots()
                    : context.frontiers().cutCovering(minimumFor(transaction));
            if (cut == null) {
                waitForCut(transaction);
                return;
            }
            readWaitingSince = -1;
            for (int partition : transaction.plan().partitions()) {
                transaction.fixSnapshot(partition, cut[partition]);
            }
            context.trace().log(() -> Trace.name(transaction.tid()) + " takes cut " + java.util.Arrays.toString(cut));
        }
        TransactionPlan.Step step = steps.get(nextStep);
        Long fixed = transaction.snapshotAt(step.partition());
        long minimum = fixed == null ? session[step.partition()] : fixed;
        Replica replica = context.cluster().replicaForRead(step.partition(), minimum);
        if (replica == null) {
            waitForReplica(transaction, step);
            return;
        }
        readWaitingSince = -1;
        long snapshot = fixed == null ? replica.engine().snapshotCounter() : fixed;
        if (fixed == null) {
            transaction.fixSnapshot(step.partition(), snapshot);
        }
        if (step.action() == TransactionPlan.Action.SCAN) {
            if (scan(transaction, step, replica, snapshot)) {
                nextStep++;
                context.scheduler().after(context.dice().millis(0, 4), () -> step(transaction));
            }
            return;
        }
        VersionedValue value;
        try {
            value = replica.engine().read(step.key(), snapshot);
        } catch (SnapshotTooOldException e) {
            snapshotTooOld(transaction, replica, snapshot);
            return;
        }
        TxId writer = WrittenValues.writerOf(value.value());
        transaction.recordRead(
                new ClientTransaction.ObservedRead(step.key(), step.partition(), snapshot, value.version(), writer));
        context.trace()
                .log(() -> Trace.name(transaction.tid()) + " reads " + step.key() + " at " + replica.name()
                        + " snapshot " + snapshot + ": version " + value.version() + " by "
                        + (writer == null ? "nobody" : Trace.name(writer)));
        if (step.action() == TransactionPlan.Action.WRITE) {
            transaction.buffer(Write.put(step.key(), WrittenValues.by(transaction.tid())));
        } else if (step.action() == TransactionPlan.Action.DELETE) {
            transaction.buffer(Write.delete(step.key()));
        }
        nextStep++;
        context.scheduler().after(context.dice().millis(0, 4), () -> step(transaction));
    }

    /**
     * Scans the step's prefix at the snapshot, all of it or up to a small limit, in either direction, and records the
     * range observed with what it held.
     *
     * @return false if the snapshot was collected (the transaction was restarted or abandoned)
     */
    private boolean scan(ClientTransaction transaction, TransactionPlan.Step step, Replica replica, long snapshot) {
        KeyRange range = KeyRange.prefix(step.key());
        int limit = context.dice().chance(0.3) ? context.dice().between(1, 3) : 1_000;
        boolean descending = context.dice().chance(0.5);
        ScanResult result;
        try {
            result = replica.engine().scan(range, limit, descending, snapshot);
        } catch (SnapshotTooOldException e) {
            snapshotTooOld(transaction, replica, snapshot);
            return false;
        }
        List<ClientTransaction.ObservedRead> found = new ArrayList<>();
        for (StoreEntry entry : result.entries()) {
            found.add(new ClientTransaction.ObservedRead(
                    entry.key(), step.partition(), snapshot, entry.version(), WrittenValues.writerOf(entry.value())));
        }
        KeyRange observed = result.observed(range, descending);
        transaction.recordScan(new ClientTransaction.ObservedScan(observed, step.partition(), snapshot, found));
        context.counters().increment("scans");
        context.trace()
                .log(() -> Trace.name(transaction.tid()) + " scans " + observed + " at " + replica.name() + " snapshot "
                        + snapshot + ": " + found.size() + " keys");
        return true;
    }

    /** What a read-only transaction's cut must cover: the client's session, and its ReadIndex if linearizable. */
    private long[] minimumFor(ClientTransaction transaction) {
        long[] minimum = context.config().mutation() == Mutation.READ_ONLY_WITHOUT_SESSION
                ? new long[session.length]
                : session.clone();
        long[] linearizable = transaction.linearizableMinimum();
        if (linearizable != null) {
            for (int p = 0; p < minimum.length; p++) {
                minimum[p] = Math.max(minimum[p], linearizable[p]);
            }
        }
        return minimum;
    }

    /** No cut covers this client's own writes yet (or the tracker just restarted): wait, as a server does. */
    private void waitForCut(ClientTransaction transaction) {
        waitOrGiveUp(
                transaction,
                () -> "no consistent cut covered the session " + java.util.Arrays.toString(session) + " within "
                        + READ_WAIT_MAX_MILLIS + " ms for " + transaction);
    }

    /** The mutant's "cut": whatever each partition's voter has applied, consistent or not. */
    private long[] latestSnapshots() {
        long[] latest = new long[context.config().partitions()];
        for (int partition = 0; partition < latest.length; partition++) {
            Replica voter = context.cluster().group(partition).voter();
            latest[partition] = voter == null ? 0 : voter.engine().snapshotCounter();
        }
        return latest;
    }

    private void waitForReplica(ClientTransaction transaction, TransactionPlan.Step step) {
        waitOrGiveUp(transaction, () -> {
            Long fixed = transaction.snapshotAt(step.partition());
            return "no replica of P" + step.partition() + " reached snapshot "
                    + (fixed == null ? session[step.partition()] : fixed) + " within " + READ_WAIT_MAX_MILLIS
                    + " ms for " + transaction;
        });
    }

    /** Tries the step again in 5 ms; after {@link #READ_WAIT_MAX_MILLIS} of waiting, reports the run as stuck. */
    private void waitOrGiveUp(ClientTransaction transaction, java.util.function.Supplier<String> stuck) {
        long now = context.scheduler().now();
        if (readWaitingSince < 0) {
            readWaitingSince = now;
        }
        if (now - readWaitingSince > READ_WAIT_MAX_MILLIS) {
            context.violations().add(Violation.Kind.LIVENESS, stuck.get(), List.of(transaction.tid()));
            transaction.abandon();
            beginNextLater();
            return;
        }
        context.scheduler().after(5, () -> step(transaction));
    }

    private void snapshotTooOld(ClientTransaction transaction, Replica replica, long snapshot) {
        context.trace()
                .log(() -> Trace.name(transaction.tid()) + " snapshot " + snapshot + " too old at " + replica.name());
        if (transaction.plan().declaredReadOnly()) {
            context.counters().increment("read-only restarts (snapshot collected)");
            transaction.restartReads();
            nextStep = 0;
            context.scheduler().after(1, () -> step(transaction));
        } else {
            context.counters().increment("update transactions abandoned (snapshot collected)");
            transaction.abandon();
            beginNextLater();
        }
    }

    private void finishReads(ClientTransaction transaction) {
        if (transaction.plan().declaredReadOnly()) {
            transaction.completeReadOnly();
            context.counters().increment("read-only transactions");
            context.trace().log(() -> Trace.name(transaction.tid()) + " read-only done");
            beginNextLater();
        } else {
            commit(transaction);
        }
    }

    // ---- commit ----

    private void commit(ClientTransaction transaction) {
        List<ClientTransaction.Broadcast> requests =
                transaction.commitRequests(context.dice().chance(0.5));
        List<ClientTransaction.Broadcast> order = new ArrayList<>(requests);
        context.dice().shuffle(order);
        int crashAfter = -1;
        if (context.faults().active()) {
            if (order.size() > 1 && context.dice().chance(context.config().clientCrashRate())) {
                crashAfter = context.dice().between(1, order.size() - 1);
            } else if (context.dice().chance(0.01)) {
                crashAfter = order.size(); // everything sent, but nobody will wait for the outcome
            }
        }
        broadcast(transaction, order, 0, crashAfter);
    }

    private void broadcast(
            ClientTransaction transaction, List<ClientTransaction.Broadcast> order, int index, int crashAfter) {
        if (transaction != current || crashed) {
            return; // already answered (an early abort), so the remaining partitions are asked to abort
        }
        ClientTransaction.Broadcast next = order.get(index);
        context.cluster().propose(next.partition(), next.request());
        transaction.markSent(next.partition());
        if (index + 1 == crashAfter) {
            crash(transaction);
            return;
        }
        if (index + 1 < order.size()) {
            long gap = context.faults().active() && context.dice().chance(0.08)
                    ? context.dice().millis(60, 500)
                    : context.dice().millis(0, 8);
            context.scheduler().after(gap, () -> broadcast(transaction, order, index + 1, crashAfter));
            return;
        }
        scheduleRetry(transaction, order);
    }

    private void scheduleRetry(ClientTransaction transaction, List<ClientTransaction.Broadcast> order) {
        context.scheduler().after(context.dice().millis(400, 900), () -> retry(transaction, order));
    }

    /** No reply yet: send the same requests again; the engines answer a known transaction with its outcome. */
    private void retry(ClientTransaction transaction, List<ClientTransaction.Broadcast> order) {
        if (!awaits(transaction.tid())) {
            return;
        }
        context.counters().increment("commit retries");
        context.trace().log(() -> "client " + id + " retries the commit of " + Trace.name(transaction.tid()));
        for (ClientTransaction.Broadcast broadcast : order) {
            context.cluster().propose(broadcast.partition(), broadcast.request());
            transaction.markSent(broadcast.partition());
        }
        scheduleRetry(transaction, order);
    }

    void onReply(Outcome outcome) {
        ClientTransaction transaction = current;
        if (transaction == null || !awaits(outcome.tid())) {
            return;
        }
        transaction.receive(outcome, context.scheduler().now());
        for (int partition : outcome.participants()) {
            session[partition] = Math.max(session[partition], outcome.versionAt(partition));
        }
        context.trace().log(() -> "client " + id + " learns " + Cluster.describe(outcome));
        maybeSendAStrayCopy(transaction);
        beginNextLater();
    }

    /**
     * The partitions forgot an earlier delivery of this commit and did not certify it again. The client must not
     * run the body again (it may have committed); it reports the transaction as unknown and moves on.
     */
    void onUnknown(TxId tid) {
        ClientTransaction transaction = current;
        if (transaction == null || !awaits(tid)) {
            return;
        }
        transaction.receiveUnknown();
        context.counters().increment("transactions with an unknown outcome");
        context.trace().log(() -> "client " + id + " learns that " + Trace.name(tid) + "'s outcome is unknown");
        beginNextLater();
    }

    /**
     * Sometimes a copy of a finished commit reaches a log much later: a coordinator that failed over resends it,
     * or a request lingered in a queue. It must be answered from the retained outcome or as unknown, never
     * certified again.
     */
    private void maybeSendAStrayCopy(ClientTransaction transaction) {
        if (!context.faults().active() || !context.dice().chance(0.05)) {
            return;
        }
        List<ClientTransaction.Broadcast> copies = transaction.commitRequests(false);
        ClientTransaction.Broadcast copy = context.dice().pick(copies);
        long delay = context.dice().millis(1, 3_000);
        context.counters().increment("stray commit copies");
        context.scheduler().after(delay, () -> context.cluster().propose(copy.partition(), copy.request()));
    }

    private void crash(ClientTransaction transaction) {
        crashed = true;
        transaction.clientCrashed();
        context.counters().increment("client crashes");
        context.trace()
                .log(() -> "client " + id + " CRASHES during the commit of " + Trace.name(transaction.tid())
                        + " (sent to " + transaction.sentTo() + ")");
        context.clients().replaceCrashed();
    }
}
