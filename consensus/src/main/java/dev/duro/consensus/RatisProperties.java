package dev.duro.consensus;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * The Ratis properties of one node's Raft server and of its Raft clients, built from its {@link
 * ConsensusSettings}: every Ratis setting Duro changes, each with why it differs from Ratis's default
 * (docs/architecture.md §10, docs/replication.md). Sets properties only; starting anything is {@link
 * ConsensusNode}'s.
 */
final class RatisProperties {
    /** Leader-to-follower retries (Ratis multilinear policy: sleep, count pairs): quick at first, then every 0.5 s. */
    private static final String APPENDER_RETRY_POLICY = "1ms,10, 100ms,20, 500ms,100000000";

    /** Also the heartbeat period's base: a leader's appender sends one when half of it passed without a reply. */
    static final long ELECTION_TIMEOUT_MIN_MILLIS = 1_000;

    private static final long ELECTION_TIMEOUT_MAX_MILLIS = 2_000;

    private RatisProperties() {}

    /** The properties of the node's Raft server, which hosts every partition group the node replicates. */
    static RaftProperties server(ConsensusSettings settings) {
        RaftProperties properties = new RaftProperties();
        // Ratis's gRPC, with an appender that can name an entry the leader purged (DuroLogAppender).
        RaftConfigKeys.Rpc.setType(properties, new DuroRpcType());
        RaftServerConfigKeys.setStorageDir(
                properties, List.of(settings.storageDirectory().toFile()));
        RaftServerConfigKeys.setRemovedGroupsDir(
                properties,
                settings.storageDirectory().resolve("removed-groups").toFile());
        GrpcConfigKeys.Server.setHost(properties, settings.raftHost());
        GrpcConfigKeys.Server.setPort(properties, settings.raftPort());
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, settings.snapshotEveryEntries());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        // Purge (closed segments) after every snapshot, as documented; Ratis's default gap of 1024 entries would
        // keep the log whole when snapshots are taken more often than that.
        RaftServerConfigKeys.Log.setPurgeGap(
                properties, (int) Math.min(Integer.MAX_VALUE, settings.snapshotEveryEntries()));
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(settings.logSegmentBytesMax()));
        // Bounded log-entry cache: see ConsensusSettings.logCacheBytesMax.
        RaftServerConfigKeys.Log.setSegmentCacheSizeMax(properties, SizeInBytes.valueOf(settings.logCacheBytesMax()));
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(properties, ConsensusSettings.LOG_CACHED_CLOSED_SEGMENTS_MAX);
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(properties, !settings.fsync());
        // Ratis's default logs each advance of the commit index as an entry of its own, written, synced and sent to
        // the followers like a proposal: at light load one more sync per proposal, which the next proposal waits
        // behind at the leader. Raft keeps the commit index in memory; a restarted replica learns it from its
        // leader, and applies no further than its snapshot until then (docs/performance.md, "Commit indexes not
        // logged").
        RaftServerConfigKeys.Log.setLogMetadataEnabled(properties, false);
        // A log entry may hold a whole batch of large values.
        GrpcConfigKeys.setMessageSizeMax(properties, SizeInBytes.valueOf(settings.messageBytesMax()));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(
                properties, SizeInBytes.valueOf(settings.appenderBufferBytesMax()));
        // A follower behind the purged log is told so and copies the leader's snapshot itself (SnapshotFetcher):
        // Ratis's own transfer keeps each chunk it sends referenced for its timeout times its window (24 s by
        // default), which on loopback held hundreds of megabytes and ran leaders out of memory
        // (docs/replication.md, "Catching up from a snapshot").
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(properties, false);
        // A leader's appender sends to a follower as soon as it has something to send. Ratis's default waits until
        // 1 ms has passed since its last send, which delayed the next entry whenever a round (a sync and a message
        // each way) took less, and delayed it behind the empty append that tells a follower of a commit; the
        // appender still pauses after a pass that found nothing to send (DuroLogAppender; docs/replication.md,
        // "Followers learn commits at once").
        RaftServerConfigKeys.Log.Appender.setWaitTimeMin(properties, TimeDuration.ZERO);
        // How often a leader retries a follower it cannot reach. Ratis's default backs off to one try every 5 s
        // after 30 failures, so a follower restarted after a few seconds down waited up to 5 s before the leader
        // tried it again, and served reads from a stale replica meanwhile; worse, if the leader then died the
        // surviving majority included that lagging follower and could commit nothing until it caught up. A try
        // every half second costs a connection attempt per unreachable follower.
        RaftServerConfigKeys.Log.Appender.setRetryPolicy(properties, APPENDER_RETRY_POLICY);
        RaftServerConfigKeys.Rpc.setRequestTimeout(
                properties, TimeDuration.valueOf(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS));
        // Read-only requests go through ReadIndex at the leader: linearizable (the default is a leader-local read).
        RaftServerConfigKeys.Read.setOption(properties, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        // Ratis's default election timeout (150-300 ms) makes leaders of busy 2-core machines step down on every
        // GC or JIT pause, and each election stalls the partition. One to two seconds keeps leaders stable; a
        // crashed leader is replaced within about that long.
        RaftServerConfigKeys.Rpc.setTimeoutMin(
                properties, TimeDuration.valueOf(ELECTION_TIMEOUT_MIN_MILLIS, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(
                properties, TimeDuration.valueOf(ELECTION_TIMEOUT_MAX_MILLIS, TimeUnit.MILLISECONDS));
        return properties;
    }

    /** The properties of a Raft client that proposes to, or reads from, one partition's group. */
    static RaftProperties client(ConsensusSettings settings) {
        RaftProperties properties = new RaftProperties();
        RaftServerConfigKeys.Rpc.setRequestTimeout(
                properties, TimeDuration.valueOf(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS));
        GrpcConfigKeys.setMessageSizeMax(properties, SizeInBytes.valueOf(settings.messageBytesMax()));
        return properties;
    }
}
