package dev.duro.bench.load;

import dev.duro.core.Bytes;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * etcd as the outside baseline, running the same transactions as Duro with etcd's optimistic pattern: get each
 * key of the plan (noting its mod revision, 0 when absent), compute the writes, then one {@code Txn} that
 * compares every read key's mod revision with what was read and, if all match, puts the writes. A failed compare
 * is etcd's certification failure and counts as an abort ({@code compare-failed}). Read-only plans are one
 * {@code Txn} of gets (one revision, no compares), which never aborts.
 *
 * <p>Reads are linearizable by default (etcd's own default: each get confirms leadership with a quorum round,
 * ReadIndex), so every get sees the latest commit. {@code -Dduro.bench.etcd.serializable=true} makes them
 * serializable (served by the member the client talks to, possibly stale), which is closer to Duro's reads from
 * one replica's snapshot; the compare still catches stale reads, so either way the transactions are serializable.
 */
public final class EtcdTarget implements Target {
    /** Where a run sets serializable reads: {@code -Dduro.bench.etcd.serializable=true}. */
    public static final String SERIALIZABLE_PROPERTY = "duro.bench.etcd.serializable";

    private static final long TIMEOUT_SECONDS = 30;

    private final EtcdCluster cluster;
    private final Client client;
    private final KV kv;
    private final GetOption readOption;
    private final boolean serializable;

    EtcdTarget(EtcdCluster cluster, boolean serializableReads) {
        this.cluster = cluster;
        this.client = Client.builder()
                .endpoints(cluster.clientUrls().toArray(new String[0]))
                .build();
        this.kv = client.getKVClient();
        this.serializable = serializableReads;
        this.readOption =
                GetOption.builder().withSerializable(serializableReads).build();
    }

    /** Starts an etcd cluster of {@code members} and connects to every member. */
    public static EtcdTarget start(int members, PrintStream console) throws IOException {
        EtcdCluster cluster = EtcdCluster.start(members, console);
        try {
            EtcdTarget target = new EtcdTarget(cluster, serializableReads());
            console.println("etcd reads: " + (serializableReads() ? "serializable" : "linearizable"));
            return target;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Whether this target's reads are serializable rather than linearizable. */
    boolean serializable() {
        return serializable;
    }

    /** Whether this run asked for serializable reads ({@link #SERIALIZABLE_PROPERTY}). */
    public static boolean serializableReads() {
        return Boolean.getBoolean(SERIALIZABLE_PROPERTY);
    }

    @Override
    public String name() {
        return "etcd-" + cluster.pids().size();
    }

    /** The members' client URLs. */
    List<String> clientUrls() {
        return cluster.clientUrls();
    }

    @Override
    public KeySpace keySpace(int keysPerPartition, double zipfSkew) {
        return new KeySpace(1, key -> 0, keysPerPartition, zipfSkew);
    }

    @Override
    public Session session() {
        return this::execute;
    }

    @Override
    public List<Long> serverPids() {
        return cluster.pids();
    }

    void execute(TxPlan plan) {
        TxPlan.Scan scan = plan.scan();
        if (scan != null) {
            // The range from the key to the end of etcd's key space ("\0" as the range end), sorted by key.
            GetOption range = GetOption.builder()
                    .withSerializable(serializable)
                    .withRange(ByteSequence.from(new byte[] {0}))
                    .withLimit(scan.limit())
                    .build();
            await(kv.get(ByteSequence.from(scan.from().toByteArray()), range));
            return;
        }
        if (plan.kind() == TxKind.READ_ONLY) {
            readOnly(plan.reads());
            return;
        }
        List<Bytes> values = new ArrayList<>(plan.reads().size());
        List<Cmp> unchanged = new ArrayList<>(plan.reads().size());
        for (Bytes key : plan.reads()) {
            ByteSequence etcdKey = ByteSequence.from(key.toByteArray());
            List<KeyValue> found = await(kv.get(etcdKey, readOption)).getKvs();
            KeyValue current = found.isEmpty() ? null : found.get(0);
            values.add(current == null ? null : Bytes.wrap(current.getValue().getBytes()));
            long modRevision = current == null ? 0 : current.getModRevision();
            unchanged.add(new Cmp(etcdKey, Cmp.Op.EQUAL, CmpTarget.modRevision(modRevision)));
        }
        List<Op> writes = new ArrayList<>();
        for (Map.Entry<Bytes, Bytes> write : plan.writes(values).entrySet()) {
            ByteSequence key = ByteSequence.from(write.getKey().toByteArray());
            writes.add(
                    write.getValue() == null
                            ? Op.delete(key, DeleteOption.DEFAULT)
                            : Op.put(key, ByteSequence.from(write.getValue().toByteArray()), PutOption.DEFAULT));
        }
        TxnResponse response = await(kv.txn()
                .If(unchanged.toArray(new Cmp[0]))
                .Then(writes.toArray(new Op[0]))
                .commit());
        if (!response.isSucceeded()) {
            throw new PlanAbortedException("compare-failed");
        }
    }

    private void readOnly(List<Bytes> keys) {
        List<Op> gets = new ArrayList<>(keys.size());
        for (Bytes key : keys) {
            gets.add(Op.get(ByteSequence.from(key.toByteArray()), readOption));
        }
        TxnResponse response = await(kv.txn().Then(gets.toArray(new Op[0])).commit());
        List<GetResponse> results = response.getGetResponses();
        if (results.size() != keys.size()) {
            throw new IllegalStateException("etcd answered " + results.size() + " gets for " + keys.size());
        }
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new IllegalStateException("etcd did not answer in " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            cluster.close();
        }
    }
}
