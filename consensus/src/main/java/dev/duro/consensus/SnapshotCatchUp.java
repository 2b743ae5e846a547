package dev.duro.consensus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.LongSupplier;
import org.apache.ratis.server.protocol.TermIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one replica behind its leader's purged log catches up: copies the leader's newest snapshot into the replica's
 * folder through the {@link SnapshotFetcher} and installs it there ({@link SnapshotFolder#install}), one fetch at a
 * time, on a thread of its own. Loading the installed snapshot is the {@link PartitionStateMachine}'s, once Ratis
 * asks it to reload; it reports each load here ({@link #loaded}).
 *
 * <p>While a snapshot fetched before is still being loaded, the next fetch waits until it is. Ratis asks as soon as
 * it has requested the reload, and a second answer while the first reload runs is lost: its reload request is
 * overwritten when the first one ends, yet the log already starts after the second snapshot, so the replica stayed
 * at the first one's index and never applied another entry (seen with snapshots of 65 MB taking 3.5 s to load,
 * docs/replication.md). Ratis asks again only after an answer or a failure, and reloads a fetched snapshot before it
 * asks again, so the wait always ends.
 *
 * <p>A replica that has meanwhile applied its own log up to the leader's first entry fetches nothing, or drops
 * what it fetched, and fails the request instead. Ratis reloads an answered snapshot only when the leader's next
 * install notification arrives, and refuses every append until then; but a replica restarted from its own snapshot
 * with the rest of its log on disk applies that log, answers each append with a next index past the leader's first,
 * and the leader never notifies again: the replica refused appends for good and its partition, with another replica
 * down, stopped (docs/replication.md). A failed request clears Ratis's install in progress, and the appends go on
 * from the replica's own log. Entries it applied were committed, so they are the leader's too. A replica that
 * applied only up to the entry <em>before</em> the leader's first still fetches: the leader may no longer know that
 * entry's term (it purged it, and its snapshot is at another index), and then it can send no append after it and
 * notifies again and again; refusing there left a restarted ex-leader refusing two hundred notifications a second.
 */
final class SnapshotCatchUp implements AutoCloseable {
    /** The replica's logger: its lines read as they did before this class was taken out of it. */
    private static final Logger LOG = LoggerFactory.getLogger(PartitionStateMachine.class);

    private final int partition;
    private final SnapshotFetcher fetcher;
    private final SnapshotFolder folder;
    /** Runs snapshot fetches, one at a time; Ratis asks for another only once one has finished. */
    private final ExecutorService fetches;

    /** Completes once the snapshot fetched last has been loaded; the next fetch waits for it (class documentation). */
    private volatile CompletableFuture<Void> lastFetchLoaded = CompletableFuture.completedFuture(null);

    /** The index of the last entry the replica has applied. */
    private final LongSupplier appliedIndex;

    /** {@code threads} makes the fetching thread (its name and logging context are the replica's to choose). */
    SnapshotCatchUp(
            int partition,
            SnapshotFetcher fetcher,
            SnapshotFolder folder,
            LongSupplier appliedIndex,
            ThreadFactory threads) {
        this.partition = partition;
        this.fetcher = fetcher;
        this.folder = folder;
        this.appliedIndex = appliedIndex;
        this.fetches = Executors.newSingleThreadExecutor(threads);
    }

    /**
     * Copies {@code leaderNode}'s newest snapshot, which must reach the entry before {@code firstInLog}, the first
     * the leader still has, and completes with its position; fails if the fetch fails (the leader moved, its
     * snapshot was replaced, the connection broke).
     */
    CompletableFuture<TermIndex> fetchFrom(String leaderNode, TermIndex firstInLog) {
        long indexMin = Math.max(0, firstInLog.getIndex() - 1);
        return lastFetchLoaded.thenApplyAsync(
                loaded -> {
                    try {
                        refuseIfApplied(firstInLog.getIndex(), "nothing fetched");
                        TermIndex fetched = fetch(leaderNode, firstInLog.getIndex());
                        lastFetchLoaded = new CompletableFuture<>(); // before Ratis can learn of it and reload
                        return fetched;
                    } catch (AlreadyApplied e) {
                        LOG.info("partition {}: {}", partition, e.getMessage());
                        throw new UncheckedIOException(e);
                    } catch (IOException e) {
                        LOG.warn(
                                "partition {}: fetching a snapshot at or after index {} from {} failed: {}",
                                partition,
                                indexMin,
                                leaderNode,
                                e.toString());
                        throw new UncheckedIOException(e);
                    }
                },
                fetches);
    }

    /**
     * Copies the leader's snapshot and installs it in the folder, unless the replica applied up to {@code firstInLog}
     * meanwhile: then the copy is dropped before it is installed, so the folder's newest snapshot stays one the
     * replica has loaded.
     */
    private TermIndex fetch(String node, long firstInLog) throws IOException {
        long indexMin = Math.max(0, firstInLog - 1);
        long startNanos = System.nanoTime();
        LOG.info(
                "partition {}: behind {}'s log; fetching its snapshot at or after index {}", partition, node, indexMin);
        SnapshotFile fetched = fetcher.fetch(node, partition, indexMin, folder.fetchingFile());
        try {
            refuseIfApplied(firstInLog, "the fetched snapshot is dropped");
        } catch (AlreadyApplied e) {
            folder.discardFetched();
            throw e;
        }
        TermIndex installed = folder.install(fetched, indexMin);
        LOG.info(
                "partition {}: fetched {}'s snapshot at (t:{}, i:{}): {} bytes in {} ms",
                partition,
                node,
                fetched.term(),
                fetched.index(),
                fetched.bytes(),
                (System.nanoTime() - startNanos) / 1_000_000);
        return installed;
    }

    /** Fails when the replica has applied its log up to the leader's first entry (class documentation). */
    private void refuseIfApplied(long firstInLog, String outcome) throws AlreadyApplied {
        long applied = appliedIndex.getAsLong();
        if (applied >= firstInLog) {
            throw new AlreadyApplied("applied its own log up to index " + applied + ", past the leader's first entry "
                    + firstInLog + "; " + outcome + ", the appends go on from there");
        }
    }

    /** The replica needs no snapshot: it applied the entries the leader no longer has. */
    static final class AlreadyApplied extends IOException {
        private static final long serialVersionUID = 1L;

        AlreadyApplied(String message) {
            super(message);
        }
    }

    /** The replica has loaded the snapshot fetched last (or tried to): the next fetch may start. */
    void loaded() {
        lastFetchLoaded.complete(null);
    }

    @Override
    public void close() {
        fetches.shutdownNow();
    }
}
