package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.snapshot.Frontier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.FollowerInfoProto;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.MetadataProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.raftlog.segmented.LogSegmentPath;
import org.apache.ratis.server.raftlog.segmented.SegmentedRaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.server.storage.StorageImplUtils;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.SizeInBytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica's snapshot as the {@link SnapshotWriter} writes it and {@link PartitionStateMachine} restores it, with
 * no Raft server: the state machine runs on a real Ratis storage folder and is fed log entries directly, as Ratis's
 * applier would. A replica restored from the file has the engine the writer froze (counter, content digest, pending
 * transactions, retained outcomes, values), goes on from it like the original, and a damaged file is refused.
 *
 * <p>The original replica (100,000 keys, a few seconds to build and write) is built and snapshotted once for the
 * class; each test restores its own copy of the snapshot files into a fresh storage folder.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SnapshotWriteRestoreTest {
    private static final int PARTITION = 0;
    private static final int KEYS = 100_000;
    private static final int WRITES_PER_TRANSACTION = 100;
    private static final int TRANSACTIONS_PER_ENTRY = 100;

    /** Every replica's folder; shared by the class, as the original is. */
    private Path data;

    private final RaftGroupId group = RaftGroupId.randomId();
    private final List<RaftStorage> storages = new ArrayList<>();
    /** Built, never started: the state machine asks it only for its id. */
    private RaftServer server;

    private final List<PartitionStateMachine> replicas = new ArrayList<>();
    private final Map<TxId, Outcome> outcomes = new ConcurrentHashMap<>();
    private long nextIndex = 1;
    private long nextSequence = 1;
    private int nextFolder = 1;

    /** The replica the snapshot is taken of, its storage, and what it held when the snapshot was taken. */
    private PartitionStateMachine original;

    private RaftStorage originalStorage;
    private PartitionStateMachine.Status before;
    private long snapshotIndex;
    private long appliedIndex;
    private long oldestReadable;
    private Map<String, VersionedValue> readsAtCounter;
    private Map<String, VersionedValue> readsAtOldest;
    private Outcome retained;
    private Frontier frontier;

    @BeforeAll
    void writeTheOriginalsSnapshot(@TempDir Path folder) throws Exception {
        data = folder;
        originalStorage = storage(RaftStorage.StartupOption.FORMAT);
        original = populatedReplica(originalStorage);
        before = original.status();
        appliedIndex = original.getLastAppliedTermIndex().getIndex();
        oldestReadable = original.oldestReadableSnapshot();
        readsAtCounter = reads(original, before.snapshotCounter());
        readsAtOldest = reads(original, oldestReadable);
        retained = original.outcomeOf(new TxId(1, 7));
        frontier = original.frontier();
        snapshotIndex = snapshot(original);
    }

    /** Closes what the test opened; the original stays for the next test. */
    @AfterEach
    void closeRestored() throws IOException {
        for (PartitionStateMachine replica : replicas.subList(1, replicas.size())) {
            replica.close();
        }
        replicas.subList(1, replicas.size()).clear();
        for (RaftStorage storage : storages.subList(1, storages.size())) {
            storage.close();
        }
        storages.subList(1, storages.size()).clear();
    }

    @AfterAll
    void closeTheOriginal() throws IOException {
        original.close();
        originalStorage.close();
        if (server != null) {
            server.close();
        }
    }

    // ---- a replica without a Raft server ----

    private RaftStorage storage(RaftStorage.StartupOption option) throws IOException {
        RaftStorage storage = StorageImplUtils.newRaftStorage(
                data.resolve("replica-" + nextFolder++).toFile(),
                SizeInBytes.ZERO,
                option,
                RaftServerConfigKeys.Log.CorruptionPolicy.EXCEPTION);
        storage.initialize();
        storages.add(storage);
        return storage;
    }

    /**
     * A replica on {@code storage}; it restores the newest snapshot there, as at a node's start. Its server is real
     * but never started (no port is bound): the state machine takes only its id from it.
     */
    private PartitionStateMachine replicaOn(RaftStorage storage) throws IOException {
        return replicaOn(storage, SnapshotFetcher.NONE);
    }

    private PartitionStateMachine replicaOn(RaftStorage storage, SnapshotFetcher fetcher) throws IOException {
        PartitionStateMachine replica =
                new PartitionStateMachine(PARTITION, EngineSettings.DEFAULT, Limits.DEFAULT, this::collect, fetcher);
        replicas.add(replica);
        if (server == null) {
            RaftProperties properties = new RaftProperties();
            RaftServerConfigKeys.setStorageDir(
                    properties, List.of(data.resolve("server").toFile()));
            GrpcConfigKeys.Server.setHost(properties, "127.0.0.1");
            GrpcConfigKeys.Server.setPort(properties, 0);
            server = RaftServer.newBuilder()
                    .setServerId(RaftPeerId.valueOf("n0"))
                    .setGroup(RaftGroup.emptyGroup())
                    .setProperties(properties)
                    .setStateMachine(replica)
                    .build();
        }
        replica.initialize(server, group, storage);
        return replica;
    }

    private void collect(int partition, List<Effect> effects) {
        for (Effect effect : effects) {
            if (effect instanceof Effect.Reply reply) {
                outcomes.put(reply.outcome().tid(), reply.outcome());
            }
        }
    }

    /** Applies one log entry holding {@code commands} at the next index of term 1, as Ratis's applier would. */
    private void apply(PartitionStateMachine replica, List<? extends Command> commands, long index) {
        byte[] entry = new CommandBatches(Limits.DEFAULT).encode(commands);
        LogEntryProto log = LogEntryProto.newBuilder()
                .setTerm(1)
                .setIndex(index)
                .setStateMachineLogEntry(StateMachineLogEntryProto.newBuilder().setLogData(ByteString.copyFrom(entry)))
                .build();
        replica.applyTransaction(TransactionContext.newBuilder()
                        .setServerRole(RaftPeerRole.FOLLOWER)
                        .setStateMachine(replica)
                        .setLogEntry(log)
                        .build())
                .join();
    }

    private static Bytes key(int i) {
        return Bytes.utf8("key-" + i);
    }

    private static Bytes utf8(String text) {
        return Bytes.utf8(text);
    }

    private static Bytes value(int i, String round) {
        return Bytes.utf8(round + "-value-" + i);
    }

    /** Blind writes of keys [from, to), one entry of {@value #TRANSACTIONS_PER_ENTRY} transactions at a time. */
    private void writeKeys(PartitionStateMachine replica, int from, int to, String round) {
        List<CommitRequest> entry = new ArrayList<>();
        for (int first = from; first < to; first += WRITES_PER_TRANSACTION) {
            List<Write> writes = new ArrayList<>();
            for (int i = first; i < Math.min(to, first + WRITES_PER_TRANSACTION); i++) {
                writes.add(Write.put(key(i), value(i, round)));
            }
            // At the replica's current counter: the keys it overwrites were written before it, so nothing aborts.
            entry.add(new CommitRequest(
                    new TxId(1, nextSequence++), List.of(PARTITION), replica.snapshotCounter(), List.of(), writes));
            if (entry.size() == TRANSACTIONS_PER_ENTRY) {
                apply(replica, entry, nextIndex++);
                entry.clear();
            }
        }
        if (!entry.isEmpty()) {
            apply(replica, entry, nextIndex++);
        }
    }

    /**
     * A replica holding {@value #KEYS} keys, some of them overwritten and deleted (several versions per key), and one
     * global transaction waiting for partition 1's vote: the state a snapshot must carry beyond the values.
     */
    private PartitionStateMachine populatedReplica(RaftStorage storage) throws IOException {
        PartitionStateMachine replica = replicaOn(storage);
        writeKeys(replica, 0, KEYS, "first");
        writeKeys(replica, 0, 1_000, "second");
        List<Write> deletes = new ArrayList<>();
        for (int i = 1_000; i < 1_100; i++) {
            deletes.add(Write.delete(key(i)));
        }
        long counter = replica.snapshotCounter();
        TxId global = new TxId(2, 1);
        apply(
                replica,
                List.of(
                        new CommitRequest(new TxId(1, nextSequence++), List.of(PARTITION), counter, List.of(), deletes),
                        new CommitRequest(
                                global,
                                List.of(PARTITION, 1),
                                counter,
                                List.of(),
                                List.of(Write.put(key(KEYS), Bytes.utf8("global"))))),
                nextIndex++);
        assertEquals(1, replica.pendingCount(), "the global waits for partition 1's vote");
        assertTrue(outcomes.values().stream().allMatch(Outcome::committed), "every local transaction committed");
        return replica;
    }

    /** Asks for a snapshot as Ratis does after each batch until the writer reports it written; its index. */
    private static long snapshot(PartitionStateMachine replica) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            long index = replica.takeSnapshot();
            if (index != SnapshotWriter.NONE) {
                return index;
            }
            Thread.sleep(5); // the writer works on its own thread; Ratis would ask again after its next batch
        }
        return fail("no snapshot written within 30 s");
    }

    /** A new replica's storage holding a copy of the original's snapshot files (data and digest). */
    private RaftStorage storageWithTheSnapshot() throws IOException {
        RaftStorage to = storage(RaftStorage.StartupOption.FORMAT);
        Path source = originalStorage.getStorageDir().getStateMachineDir().toPath();
        Path target = to.getStorageDir().getStateMachineDir().toPath();
        Files.createDirectories(target);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(source)) {
            for (Path file : files) {
                Files.copy(file, target.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }

    private static Path snapshotFileIn(RaftStorage storage) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(
                storage.getStorageDir().getStateMachineDir().toPath(), "snapshot.*_*")) {
            List<Path> data = new ArrayList<>();
            files.forEach(file -> {
                if (!file.getFileName().toString().endsWith(".md5")) {
                    data.add(file);
                }
            });
            assertEquals(1, data.size(), "snapshot files: " + data);
            return data.get(0);
        }
    }

    /** Keys of every kind: overwritten, deleted, written once, and the pending global's (not readable yet). */
    private static final int[] SAMPLED = {0, 999, 1_000, 1_099, 1_100, KEYS / 2, KEYS - 1, KEYS};

    private static Map<String, VersionedValue> reads(PartitionStateMachine replica, long at) {
        Map<String, VersionedValue> values = new TreeMap<>();
        for (int i : SAMPLED) {
            values.put(key(i).toUtf8(), replica.read(key(i), at));
        }
        return values;
    }

    // ---- the tests ----

    @Test
    void theSnapshotHoldsEveryEntryAppliedAndTheDigestOfItsBytes() throws Exception {
        assertEquals(appliedIndex, snapshotIndex);
        SnapshotFile written = original.latestSnapshot().orElseThrow();
        assertEquals(snapshotIndex, written.index());
        assertArrayEquals(
                MessageDigest.getInstance("MD5").digest(Files.readAllBytes(written.file())),
                written.md5(),
                "the digest beside the file is the file's");
        assertNotNull(original.lastWritten());
        assertEquals(Files.size(written.file()), original.lastWritten().bytes());
    }

    @Test
    void aReplicaRestoredFromTheWrittenSnapshotHasTheStateThatWasFrozen() throws Exception {
        PartitionStateMachine restored = replicaOn(storageWithTheSnapshot());

        assertEquals(before, restored.status(), "counter, content digest and pending count");
        assertEquals(TermIndex.valueOf(1, snapshotIndex), restored.getLastAppliedTermIndex(), "Ratis replays after it");
        assertEquals(readsAtCounter, reads(restored, before.snapshotCounter()));
        assertEquals(oldestReadable, restored.oldestReadableSnapshot());
        assertEquals(readsAtOldest, reads(restored, oldestReadable), "older versions travel too");
        assertNotNull(retained, "the original retains the outcome of an early transaction");
        assertEquals(retained, restored.outcomeOf(new TxId(1, 7)), "retained outcomes travel");
        assertEquals(frontier, restored.frontier());
    }

    @Test
    void aRestoredReplicaGoesOnFromTheSnapshotLikeTheOriginal() throws Exception {
        PartitionStateMachine restored = replicaOn(storageWithTheSnapshot());
        // The same next entry at both: an overwrite, which waits behind the pending global, and a read-write
        // transaction that must abort at both because it read a key deleted after its snapshot (the restored
        // certification window has to know of that delete).
        long counter = restored.snapshotCounter();
        List<CommitRequest> next = List.of(
                new CommitRequest(
                        new TxId(3, 1),
                        List.of(PARTITION),
                        counter,
                        List.of(),
                        List.of(Write.put(key(5), utf8("third")))),
                new CommitRequest(
                        new TxId(3, 2),
                        List.of(PARTITION),
                        counter - 1,
                        List.of(key(1_050)),
                        List.of(Write.put(key(6), utf8("third")))));
        long index = nextIndex++;
        apply(original, next, index);
        Outcome conflicted = outcomes.remove(new TxId(3, 2));
        apply(restored, next, index);

        assertEquals(original.status(), restored.status());
        assertEquals(2, restored.pendingCount(), "the overwrite waits behind the restored global, as at the original");
        assertNotNull(conflicted);
        assertFalse(conflicted.committed(), "it read a key deleted after its snapshot: " + conflicted);
        assertEquals(conflicted, outcomes.get(new TxId(3, 2)), "the same certification answer at both");
        assertEquals(reads(original, counter), reads(restored, counter));
    }

    /** A fetcher that copies the original's newest snapshot, noting each fetch's {@code indexMin} in {@code log}. */
    private SnapshotFetcher fromTheOriginal(List<Long> log) {
        SnapshotFile leaders = original.latestSnapshot().orElseThrow();
        return (node, partition, indexMin, into) -> {
            log.add(indexMin);
            Files.copy(leaders.file(), into, StandardCopyOption.REPLACE_EXISTING);
            return leaders;
        };
    }

    /** The role Ratis reports to a follower whose leader is n1. */
    private static RoleInfoProto followerOfN1() {
        return RoleInfoProto.newBuilder()
                .setFollowerInfo(FollowerInfoProto.newBuilder()
                        .setLeaderInfo(ServerRpcProto.newBuilder()
                                .setId(RaftPeerProto.newBuilder().setId(ByteString.copyFromUtf8("n1")))))
                .build();
    }

    /**
     * Ratis asks for the next fetch as soon as it has requested the reload of the last one, and loses a second answer
     * that arrives while the first is still loading (the replica would stay at the first snapshot for good). So the
     * next fetch waits until the snapshot fetched before is loaded.
     */
    @Test
    void aFetchWaitsUntilTheSnapshotFetchedBeforeIsLoaded() throws Exception {
        List<Long> fetchedAtOrAfter = new CopyOnWriteArrayList<>();
        PartitionStateMachine follower =
                replicaOn(storage(RaftStorage.StartupOption.FORMAT), fromTheOriginal(fetchedAtOrAfter));
        RoleInfoProto role = followerOfN1();
        TermIndex firstInLog = TermIndex.valueOf(1, snapshotIndex);

        TermIndex installed =
                follower.notifyInstallSnapshotFromLeader(role, firstInLog).join();
        assertEquals(TermIndex.valueOf(1, snapshotIndex), installed);
        CompletableFuture<TermIndex> next = follower.notifyInstallSnapshotFromLeader(role, firstInLog);
        Thread.sleep(200); // time enough for a fetch of a file on local disk, were it not waiting
        assertFalse(next.isDone(), "the next fetch waits while the first snapshot is not loaded");
        assertEquals(List.of(snapshotIndex - 1), fetchedAtOrAfter, "nothing was fetched the second time");

        follower.pause(); // as Ratis reloads it
        follower.reinitialize();
        assertEquals(before, follower.status(), "the fetched snapshot is loaded");
        // Then the waiting request goes ahead. Its gap is the one the loaded snapshot filled, so it needs no fetch
        // (aReplicaThatAppliedTheLeadersFirstEntryFetchesNothing): it fails, and nothing more is fetched.
        ExecutionException answered = assertThrows(ExecutionException.class, () -> next.get(10, TimeUnit.SECONDS));
        assertTrue(answered.getCause().getCause() instanceof SnapshotCatchUp.AlreadyApplied, answered.toString());
        assertEquals(List.of(snapshotIndex - 1), fetchedAtOrAfter);
    }

    /**
     * A replica restarted from its own snapshot applies the rest of its log from disk. If that reaches the leader's
     * first entry, it needs no snapshot: answering one would leave Ratis refusing appends until an install
     * notification that the leader, which sees the replica's log reach its own, never sends again. So the request fails
     * without a fetch. A replica that applied only the entry before the leader's first still fetches: the leader may
     * not know that entry's term any more and can then only notify, forever if the replica kept refusing.
     */
    @Test
    void aReplicaThatAppliedTheLeadersFirstEntryFetchesNothing() throws Exception {
        List<Long> fetchedAtOrAfter = new CopyOnWriteArrayList<>();
        PartitionStateMachine follower =
                replicaOn(storage(RaftStorage.StartupOption.FORMAT), fromTheOriginal(fetchedAtOrAfter));
        apply(
                follower,
                List.of(new CommitRequest(
                        new TxId(9, 1),
                        List.of(PARTITION),
                        0,
                        List.of(),
                        List.of(Write.put(key(0), Bytes.utf8("own log"))))),
                5);
        RoleInfoProto role = followerOfN1();

        CompletableFuture<TermIndex> covered = follower.notifyInstallSnapshotFromLeader(role, TermIndex.valueOf(1, 5));
        ExecutionException refused = assertThrows(ExecutionException.class, () -> covered.get(10, TimeUnit.SECONDS));
        assertTrue(refused.getCause().getCause() instanceof SnapshotCatchUp.AlreadyApplied, refused.toString());
        assertEquals(List.of(), fetchedAtOrAfter, "nothing fetched for a gap the replica applied from its own log");

        TermIndex installed = follower.notifyInstallSnapshotFromLeader(role, TermIndex.valueOf(1, 6))
                .get(10, TimeUnit.SECONDS);
        assertEquals(TermIndex.valueOf(1, snapshotIndex), installed, "applied up to the entry before: fetched");
        assertEquals(List.of(5L), fetchedAtOrAfter);
    }

    /**
     * A replica that applies its own log up to the leader's first entry while the copy arrives drops the copy before
     * installing it: the folder's newest snapshot stays one the replica has loaded.
     */
    @Test
    void aCopyFetchedWhileTheReplicaAppliedTheGapIsDroppedBeforeItIsInstalled() throws Exception {
        AtomicReference<PartitionStateMachine> follower = new AtomicReference<>();
        SnapshotFetcher copiesThenTheReplicaApplies = (node, partition, indexMin, into) -> {
            SnapshotFile copy = fromTheOriginal(new ArrayList<>()).fetch(node, partition, indexMin, into);
            apply(
                    follower.get(),
                    List.of(new CommitRequest(
                            new TxId(9, 2),
                            List.of(PARTITION),
                            0,
                            List.of(),
                            List.of(Write.put(key(0), Bytes.utf8("own log"))))),
                    indexMin + 1);
            return copy;
        };
        RaftStorage storage = storage(RaftStorage.StartupOption.FORMAT);
        follower.set(replicaOn(storage, copiesThenTheReplicaApplies));

        CompletableFuture<TermIndex> request =
                follower.get().notifyInstallSnapshotFromLeader(followerOfN1(), TermIndex.valueOf(1, snapshotIndex));
        ExecutionException refused = assertThrows(ExecutionException.class, () -> request.get(10, TimeUnit.SECONDS));

        assertTrue(refused.getCause().getCause() instanceof SnapshotCatchUp.AlreadyApplied, refused.toString());
        assertEquals(Optional.empty(), follower.get().latestSnapshot(), "nothing installed");
        assertTrue(
                Files.notExists(
                        storage.getStorageDir().getStateMachineDir().toPath().resolve(SnapshotFolder.FETCHING_FILE)),
                "the copy is deleted");
    }

    /**
     * Writes entries {@code 0..last} of term 1 into a Raft log on {@code storage} with Ratis's own segmented log,
     * leaving its last segment open, as a replica stopped while following does.
     */
    private void writeRaftLog(RaftStorage storage, long last) throws Exception {
        try (SegmentedRaftLog log = raftLog(storage, RaftLog.INVALID_LOG_INDEX)) {
            for (long index = 0; index <= last; index++) {
                log.appendEntry(LogEntryProto.newBuilder()
                                .setTerm(1)
                                .setIndex(index)
                                .setMetadataEntry(MetadataProto.newBuilder().setCommitIndex(index))
                                .build())
                        .get(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Ratis's segmented log on {@code storage}, opened as Ratis opens it after a snapshot at {@code snapshot}. */
    private SegmentedRaftLog raftLog(RaftStorage storage, long snapshot) throws IOException {
        SegmentedRaftLog log = SegmentedRaftLog.newBuilder()
                .setMemberId(RaftGroupMemberId.valueOf(RaftPeerId.valueOf("n0"), group))
                .setStorage(storage)
                .setSnapshotIndexSupplier(() -> snapshot)
                .setProperties(new RaftProperties())
                .build();
        log.open(snapshot, null);
        return log;
    }

    /** Whether Ratis's log on {@code storage}, opened after the snapshot, takes the entry right after it. */
    private boolean takesTheEntryAfterTheSnapshot(RaftStorage storage) throws Exception {
        try (SegmentedRaftLog log = raftLog(storage, snapshotIndex)) {
            log.appendEntry(LogEntryProto.newBuilder()
                            .setTerm(2)
                            .setIndex(snapshotIndex + 1)
                            .setMetadataEntry(MetadataProto.newBuilder().setCommitIndex(snapshotIndex))
                            .build())
                    .get(10, TimeUnit.SECONDS);
            return log.getLastEntryTermIndex().equals(TermIndex.valueOf(2, snapshotIndex + 1));
        } catch (IOException | ExecutionException | IllegalStateException e) {
            return false;
        }
    }

    /**
     * A replica stopped after it fetched the leader's snapshot, before Ratis installed it, restarts from that
     * snapshot with a log that ends before it. Ratis keeps such a log's open segment and then refuses every entry
     * the leader sends after the snapshot (the control shows it), so the restart drops the log: the snapshot holds
     * every committed entry it could add.
     */
    @Test
    void aLogEndingBeforeTheRestoredSnapshotIsDroppedAtStart() throws Exception {
        long logEnd = snapshotIndex - 3;
        RaftStorage control = storageWithTheSnapshot();
        writeRaftLog(control, logEnd);
        assertFalse(takesTheEntryAfterTheSnapshot(control), "Ratis alone cannot go on after the snapshot");

        RaftStorage restarted = storageWithTheSnapshot();
        writeRaftLog(restarted, logEnd);
        PartitionStateMachine replica = replicaOn(restarted);

        assertEquals(TermIndex.valueOf(1, snapshotIndex), replica.getLastAppliedTermIndex());
        assertEquals(List.of(), LogSegmentPath.getLogSegmentPaths(restarted), "the log is dropped");
        assertTrue(takesTheEntryAfterTheSnapshot(restarted), "the leader's next entry is taken");
    }

    /** A log that reaches the snapshot is Ratis's to replay: nothing is dropped. */
    @Test
    void aLogReachingTheRestoredSnapshotIsKept() throws Exception {
        RaftStorage restarted = storageWithTheSnapshot();
        writeRaftLog(restarted, snapshotIndex + 2);
        List<LogSegmentPath> segments = LogSegmentPath.getLogSegmentPaths(restarted);

        replicaOn(restarted);

        assertEquals(1, segments.size(), "one open segment: " + segments);
        assertEquals(
                segments.stream().map(LogSegmentPath::getPath).toList(),
                LogSegmentPath.getLogSegmentPaths(restarted).stream()
                        .map(LogSegmentPath::getPath)
                        .toList());
        try (SegmentedRaftLog log = raftLog(restarted, snapshotIndex)) {
            assertEquals(TermIndex.valueOf(1, snapshotIndex + 2), log.getLastEntryTermIndex(), "the tail is kept");
        }
    }

    @Test
    void aTruncatedSnapshotIsRefusedAtStart() throws Exception {
        RaftStorage damaged = storageWithTheSnapshot();
        Path file = snapshotFileIn(damaged);
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length / 2));

        IOException refused = assertThrows(IOException.class, () -> replicaOn(damaged));

        assertTrue(refused.getMessage().contains(file.toString()), "names the file: " + refused.getMessage());
        assertTrue(refused.getMessage().contains("damaged"), refused.getMessage());
    }

    /**
     * A byte changed inside a value leaves the file well-formed, so only its digest can tell: the restore compares
     * the file with the MD5 digest the writer saved beside it, since a replica restored from it would start with a
     * value no peer has.
     */
    @Test
    void aSnapshotWhoseBytesNoLongerMatchItsDigestIsRefused() throws Exception {
        RaftStorage damaged = storageWithTheSnapshot();
        Path file = snapshotFileIn(damaged);
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, value(KEYS / 2, "first").toUtf8().getBytes(StandardCharsets.UTF_8));
        bytes[at] ^= 1; // "first-value-50000" becomes "girst-value-50000": still a valid state
        Files.write(file, bytes);

        IOException refused = assertThrows(IOException.class, () -> replicaOn(damaged));

        assertTrue(refused.getMessage().toLowerCase(Locale.ROOT).contains("md5"), refused.getMessage());
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return fail("not in the snapshot");
    }
}
