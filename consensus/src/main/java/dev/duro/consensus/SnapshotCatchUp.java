package dev.duro.consensus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
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

    /** {@code threads} makes the fetching thread (its name and logging context are the replica's to choose). */
    SnapshotCatchUp(int partition, SnapshotFetcher fetcher, SnapshotFolder folder, ThreadFactory threads) {
        this.partition = partition;
        this.fetcher = fetcher;
        this.folder = folder;
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
                        TermIndex fetched = fetch(leaderNode, indexMin);
                        lastFetchLoaded = new CompletableFuture<>(); // before Ratis can learn of it and reload
                        return fetched;
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

    private TermIndex fetch(String node, long indexMin) throws IOException {
        long startNanos = System.nanoTime();
        LOG.info(
                "partition {}: behind {}'s log; fetching its snapshot at or after index {}", partition, node, indexMin);
        SnapshotFile fetched = fetcher.fetch(node, partition, indexMin, folder.fetchingFile());
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

    /** The replica has loaded the snapshot fetched last (or tried to): the next fetch may start. */
    void loaded() {
        lastFetchLoaded.complete(null);
    }

    @Override
    public void close() {
        fetches.shutdownNow();
    }
}
