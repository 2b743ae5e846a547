package dev.duro.server;

import dev.duro.consensus.ConsensusSettings;
import dev.duro.core.Limits;
import dev.duro.core.certify.CertifierSettings;
import dev.duro.core.engine.EngineSettings;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Every setting a node reads: its key, default, bounds and meaning, in one table. {@link ServerConfig} parses by
 * it, and the README's configuration table is generated from it ({@link #markdownTable}; {@code
 * ConfigurationTableTest} fails when the README drifts, and says how to regenerate it). Keys with {@code <id>} or
 * {@code <p>} stand for one setting per node or per partition.
 */
final class Settings {
    private Settings() {}

    /** One row of the table. */
    sealed interface Setting permits Text, Int, Flag {
        String key();

        /** The default as the README shows it. */
        String defaultText();

        /** What it does, in Markdown. */
        String meaning();

        /** The key of a per-node or per-partition setting for one node or partition. */
        default String keyFor(Object idOrPartition) {
            return key().replace("<id>", idOrPartition.toString()).replace("<p>", idOrPartition.toString());
        }
    }

    /** A string; {@code defaultValue} null when the default is computed, and {@code defaultText} describes it. */
    record Text(String key, @Nullable String defaultValue, String defaultText, String meaning) implements Setting {
        static Text of(String key, String defaultValue, String meaning) {
            return new Text(key, defaultValue, "`" + defaultValue + "`", meaning);
        }

        static Text computed(String key, String defaultText, String meaning) {
            return new Text(key, null, defaultText, meaning);
        }
    }

    /** An integer within {@code [min, max]}; {@code computedDefault} describes a default the parser computes. */
    record Int(String key, int defaultValue, int min, int max, @Nullable String computedDefault, String meaning)
            implements Setting {
        Int(String key, int defaultValue, int min, int max, String meaning) {
            this(key, defaultValue, min, max, null, meaning);
        }

        @Override
        public String defaultText() {
            return computedDefault != null ? computedDefault : "`" + defaultValue + "`";
        }
    }

    /** {@code true} or {@code false}. */
    record Flag(String key, boolean defaultValue, String meaning) implements Setting {
        @Override
        public String defaultText() {
            return "`" + defaultValue + "`";
        }
    }

    static final String REQUIRED = "— (required)";

    static final Text CLUSTER_NAME =
            Text.of("cluster.name", "duro", "name of the cluster; also seeds the Raft group ids");
    static final Text CLUSTER_NODES = Text.computed("cluster.nodes", REQUIRED, "comma-separated node ids");
    static final Text NODE_ADDRESS =
            Text.computed("node.<id>.address", REQUIRED, "host:port of the node's Netty endpoint (clients and peers)");
    static final Text NODE_RAFT =
            Text.computed("node.<id>.raft", REQUIRED, "host:port of the node's Raft (gRPC) endpoint");
    static final Text NODE_ADVERTISE = Text.computed(
            "node.<id>.advertise",
            "the node's `address`",
            "host:port clients are told to use for the node, where they reach it through address translation (a"
                    + " container's published port, a load balancer); peers still use `address`");
    static final Int CLUSTER_PARTITIONS =
            new Int("cluster.partitions", 1, 1, Limits.PARTITIONS_MAX, "number of partitions");
    static final Int CLUSTER_REPLICATION =
            new Int("cluster.replication", 3, 1, 15, "`min(3, nodes)`", "replicas per partition, placed round robin");
    static final Text PARTITION_REPLICAS =
            Text.computed("partition.<p>.replicas", "round robin", "explicit replica list for partition `p`");
    static final Text CLUSTER_PARTITIONER =
            Text.of("cluster.partitioner", "hash", "`hash` (murmur3) or `range:split1,split2,...`");
    static final Text CLUSTER_PREFERRED_LEADERS = Text.computed(
            "cluster.preferred-leaders",
            "none: elections decide",
            "comma-separated node ids, most preferred first: the leader of each partition hands its leadership to the"
                    + " first listed node that replicates it and is caught up, so leaders gather there, move down the"
                    + " list while that node is down, and return once it is back. Leaders on one node keep a global"
                    + " transaction's votes inside one process ([where the leaders sit](docs/replication.md#where-the-leaders-sit))");
    static final Text NODE_ID = Text.computed("node.id", REQUIRED, "this node's id");
    static final Text DATA_DIR =
            Text.computed("data.dir", "`data/<id>`", "this node's storage (Raft logs and snapshots under `raft/`)");
    static final Int KEY_BYTES_MAX = new Int(
            Limits.Limit.KEY_BYTES.settingName(),
            Limits.DEFAULT.keyBytesMax(),
            1,
            Limits.CEILING.keyBytesMax(),
            "longest key");
    static final Int VALUE_BYTES_MAX = new Int(
            Limits.Limit.VALUE_BYTES.settingName(),
            Limits.DEFAULT.valueBytesMax(),
            1,
            Limits.CEILING.valueBytesMax(),
            "longest value");
    static final Int TRANSACTION_KEYS_MAX = new Int(
            Limits.Limit.TRANSACTION_KEYS.settingName(),
            Limits.DEFAULT.transactionKeysMax(),
            1,
            Limits.CEILING.transactionKeysMax(),
            "most keys one transaction reads or writes");
    static final Int SCAN_KEYS_MAX = new Int(
            "limits.scan-keys-max",
            10_000,
            1,
            1_000_000,
            "most keys one scan request returns; a scan asking for more gets this many and the reply says more"
                    + " remain (the client continues from there), so one request holds a replica's lock boundedly");
    static final Int WINDOW_TRANSACTIONS = new Int(
            "certification.window-transactions",
            CertifierSettings.DEFAULT.windowTransactions(),
            1,
            10_000_000,
            "K: certified transactions retained; older snapshots abort as too old (too small a window aborts most"
                    + " transactions under load)");
    static final Int BLOOM_READ_SET_KEYS_MIN = new Int(
            "certification.bloom-read-set-keys-min",
            CertifierSettings.DEFAULT.bloomReadSetKeysMin(),
            0,
            Integer.MAX_VALUE,
            "readsets this large are summarised by bloom filters");
    static final Int SNAPSHOTS_RETAINED = new Int(
            "engine.snapshots-retained",
            (int) EngineSettings.DEFAULT.snapshotsRetained(),
            1,
            Integer.MAX_VALUE,
            "versions behind SC that stay readable");
    static final Int OUTCOMES_RETAINED = new Int(
            "engine.outcomes-retained",
            EngineSettings.DEFAULT.outcomesRetained(),
            1,
            10_000_000,
            "delivered transactions whose outcome is retained (counted in log order) to answer retried commits, late"
                    + " abort requests and late votes. Any value is safe: a commit retried after its outcome was"
                    + " forgotten gets `OUTCOME_UNKNOWN`, never a second certification, and a global is kept until"
                    + " every participant has logged its decision ([window safety](docs/window-safety.md)); small"
                    + " values only give more unknown outcomes");
    static final Int BUFFERED_VOTES_MAX = new Int(
            "engine.buffered-votes-max",
            EngineSettings.DEFAULT.bufferedVotesMax(),
            1,
            10_000_000,
            "votes held for transactions not delivered here yet (oldest dropped; a dropped vote is resent on"
                    + " request)");
    static final Int VOTE_RESEND_AFTER_MILLIS = new Int(
            "engine.vote-resend-after-millis",
            (int) EngineSettings.DEFAULT.voteResendAfterMillis(),
            1,
            60_000,
            "a global transaction waiting this long for votes makes replicas resend");
    static final Int ABORT_REQUEST_AFTER_MILLIS = new Int(
            "engine.abort-request-after-millis",
            (int) EngineSettings.DEFAULT.abortRequestAfterMillis(),
            1,
            600_000,
            "then propose an abort request into the silent partition's log (longer than a Raft election, so a"
                    + " leader change alone aborts nothing)");
    static final Flag FSYNC = new Flag(
            "raft.fsync",
            true,
            "sync the log before acknowledging; `false` trades the last milliseconds on power loss for latency");
    static final Int SNAPSHOT_EVERY_ENTRIES = new Int(
            "raft.snapshot-every-entries",
            20_000,
            1,
            Integer.MAX_VALUE,
            "state-machine snapshot (and log purge) period");
    static final Int BATCH_COMMANDS_MAX =
            new Int("raft.batch-commands-max", 1_000, 1, 100_000, "most commands per log entry (group commit)");
    static final Int PROPOSALS_IN_FLIGHT_MAX = new Int(
            "raft.proposals-in-flight-max",
            ConsensusSettings.PROPOSALS_IN_FLIGHT_DEFAULT,
            1,
            64,
            "log entries a node has proposed to one partition and not yet seen applied; commands submitted"
                    + " meanwhile wait for the next entry (cuts, abort requests and decisions ahead of commit requests)");
    static final Int BATCH_LINGER_MICROS = new Int(
            "raft.batch-linger-micros",
            ConsensusSettings.BATCH_LINGER_MICROS_DEFAULT,
            0,
            ConsensusSettings.BATCH_LINGER_MICROS_MAX,
            "the longest a partition's next log entry waits for more commands when the last one carried several"
                    + " commit requests: half the time the last entry took to commit, at most this (not when it is"
                    + " full or holds an abort request or a cut); fewer, fuller entries for a little latency; `0`"
                    + " sends at once (docs/performance.md, \"Waits as long as half a round\")");
    static final Int READ_WAIT_MILLIS_MAX = new Int(
            "server.read-wait-millis-max",
            2_000,
            0,
            600_000,
            "how long a read waits for a lagging replica before `SNAPSHOT_NOT_READY`, and a read-only transaction's"
                    + " cut for the node's chain to reach the client's own commits");
    static final Int COMMIT_TIMEOUT_MILLIS =
            new Int("server.commit-timeout-millis", 10_000, 1, 600_000, "how long a coordinator waits for an outcome");
    static final Int COORDINATOR_LAG_MAX = new Int(
            "server.coordinator-lag-max",
            1_000,
            0,
            Integer.MAX_VALUE,
            "a node coordinates a commit only if one of its replicas of the participants is at most this many"
                    + " deliveries behind the newest counter it heard from that partition (else `NOT_READY` before"
                    + " appending: the client asks the next replica)");
    static final Text BIND_HOST = Text.computed(
            "server.bind-host",
            "host of the node's own `address`",
            "the host its client, Raft and HTTP endpoints bind to; `0.0.0.0` for every interface, as in a container");
    static final Int HTTP_PORT = new Int(
            "server.http-port",
            -1,
            -1,
            65_535,
            "the node's operator endpoint (`/health`, `/ready`, `/metrics`; see [Metrics and"
                    + " health](#metrics-and-health)); -1 for none, 0 for any free port. `./duro local` gives node i"
                    + " port 7300+i");
    static final Int INFLIGHT_COMMITS_MAX = new Int(
            "server.inflight-commits-max", 10_000, 1, 10_000_000, "commits in flight per node before `OVERLOADED`");
    static final Int TICK_MILLIS =
            new Int("server.tick-millis", 10, 1, 10_000, "engine tick period (vote resends, abort requests)");
    static final Int FRONTIER_MILLIS = new Int(
            "server.frontier-millis",
            5,
            1,
            10_000,
            "frontier round of the vector-of-snapshots service: a leader sends when its SC moved (else every"
                    + " second)");
    static final Int FRAME_BYTES_MAX =
            new Int("server.frame-bytes-max", 64 << 20, 1 << 16, 1 << 30, "largest frame accepted");
    static final Int AUTH_REFRESH_MILLIS = new Int(
            "auth.refresh-millis",
            1_000,
            10,
            600_000,
            "how often the node reads the cluster's auth record (users, roles, grants, on or off) at a linearizable"
                    + " snapshot; a revoked grant or removed user stops working at every node within this period"
                    + " ([auth](docs/auth.md))");
    static final Int AUTH_PASSWORD_ITERATIONS = new Int(
            "auth.password-iterations",
            600_000,
            10_000,
            100_000_000,
            "PBKDF2-HMAC-SHA256 iterations for passwords this node hashes (`./duro admin user add`); each stored"
                    + " hash keeps its own count, and a verified password is remembered, so a reconnect costs no"
                    + " hashing");
    static final Text LOG_FORMAT = Text.of(
            "log.format",
            "text",
            "how the node writes its log lines (standard error): `text`, or `json` for log shippers, one object per"
                    + " line; see [Logs](#logs)");

    static final String TLS_OFF = "— (TLS off)";
    static final Text TLS_CA_FILE = Text.computed(
            "tls.ca-file",
            TLS_OFF,
            "PEM file of the cluster's CA certificate(s). With `tls.cert-file` and `tls.key-file` (all three or none)"
                    + " every link speaks TLS 1.3: clients and peers to the node's endpoint, node to node, and the"
                    + " Raft links, which accept only certificates of configured nodes. Unset: plaintext, for"
                    + " loopback development only; see [docs/security.md](docs/security.md)");
    static final Text TLS_CERT_FILE = Text.computed(
            "tls.cert-file",
            TLS_OFF,
            "PEM file of this node's certificate (leaf first), issued by the CA, subject `CN=node:<id>` (`./duro"
                    + " certs`)");
    static final Text TLS_KEY_FILE = Text.computed(
            "tls.key-file", TLS_OFF, "PEM file of this node's private key (PKCS#8, or EC/RSA), unencrypted");

    /** Every setting, in the README's order. */
    static final List<Setting> ALL = List.of(
            CLUSTER_NAME,
            CLUSTER_NODES,
            NODE_ADDRESS,
            NODE_RAFT,
            NODE_ADVERTISE,
            CLUSTER_PARTITIONS,
            CLUSTER_REPLICATION,
            PARTITION_REPLICAS,
            CLUSTER_PARTITIONER,
            CLUSTER_PREFERRED_LEADERS,
            NODE_ID,
            DATA_DIR,
            KEY_BYTES_MAX,
            VALUE_BYTES_MAX,
            TRANSACTION_KEYS_MAX,
            SCAN_KEYS_MAX,
            WINDOW_TRANSACTIONS,
            BLOOM_READ_SET_KEYS_MIN,
            SNAPSHOTS_RETAINED,
            OUTCOMES_RETAINED,
            BUFFERED_VOTES_MAX,
            VOTE_RESEND_AFTER_MILLIS,
            ABORT_REQUEST_AFTER_MILLIS,
            FSYNC,
            SNAPSHOT_EVERY_ENTRIES,
            BATCH_COMMANDS_MAX,
            PROPOSALS_IN_FLIGHT_MAX,
            BATCH_LINGER_MICROS,
            READ_WAIT_MILLIS_MAX,
            COMMIT_TIMEOUT_MILLIS,
            COORDINATOR_LAG_MAX,
            BIND_HOST,
            HTTP_PORT,
            INFLIGHT_COMMITS_MAX,
            TICK_MILLIS,
            FRONTIER_MILLIS,
            FRAME_BYTES_MAX,
            AUTH_REFRESH_MILLIS,
            AUTH_PASSWORD_ITERATIONS,
            TLS_CA_FILE,
            TLS_CERT_FILE,
            TLS_KEY_FILE,
            LOG_FORMAT);

    /** The README's configuration table. */
    static String markdownTable() {
        StringBuilder table = new StringBuilder("| key | default | meaning |\n| --- | --- | --- |\n");
        for (Setting setting : ALL) {
            table.append("| `")
                    .append(setting.key())
                    .append("` | ")
                    .append(setting.defaultText())
                    .append(" | ")
                    .append(setting.meaning())
                    .append(" |\n");
        }
        return table.toString();
    }
}
