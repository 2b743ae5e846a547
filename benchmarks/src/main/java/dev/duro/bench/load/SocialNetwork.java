package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * P-DUR's Twitter-like benchmark (§VI-A, §VI-F): 50% timeline, 40% post, 10% follow. Users are partitioned by
 * user id, each stored with its three lists: its posts, its consumers (who follows it) and its producers (whom
 * it follows), as {@link BoundedList}s that keep the newest {@value #POSTS_KEPT} posts and {@value
 * #FOLLOWS_KEPT} user ids. A missing list is empty, so runs need no load phase.
 *
 * <ul>
 *   <li><b>post</b>: appends a random message of 10 to 50 characters to the user's posts (read, then write);
 *       always local.
 *   <li><b>follow</b>: user u follows v: v joins u's producers and u joins v's consumers; global when u and v
 *       live in different partitions, which happens for {@code --global} percent of follows (the paper's 50%
 *       by default).
 *   <li><b>timeline</b>: read-only; reads u's producers and the posts of the users u may follow.
 * </ul>
 *
 * <p>Deviation from the paper: a plan names its reads before it runs, so a timeline cannot read the producer
 * list and then the posts of exactly those producers. Instead each user has a fixed set of {@value #CANDIDATES}
 * candidate producers (a pure function of the user, so every client agrees on it), each in another partition
 * with probability {@code --global} percent; follows pick among them, and a timeline reads the producer list
 * plus the posts of every candidate, a superset of the producers' posts. The paper does not say how many users
 * a user follows; it populates 420,000 users, here a third of {@code --keys-per-partition} per partition. Users
 * are chosen uniformly, or zipfian by id within a partition with {@code --zipf}. {@code --global-partitions}
 * does not apply: a follow involves two users.
 */
final class SocialNetwork {
    static final int TIMELINE_PERCENT = 50;
    static final int POST_PERCENT = 40;
    static final int POSTS_KEPT = 16;
    static final int FOLLOWS_KEPT = 32;
    static final int CANDIDATES = 8;
    static final int POST_CHARS_MIN = 10;
    static final int POST_CHARS_MAX = 50;
    private static final long CANDIDATE_SEED = 0x50c1a1L;

    private final KeySpace keys;
    private final int users;
    private final int globalPercent;

    SocialNetwork(KeySpace keys, int globalPercent) {
        this.keys = keys;
        this.users = keys.keysPerPartition() / 3;
        this.globalPercent = globalPercent;
    }

    /** A user: the {@code index}-th of {@code partition}; its id is the key of its posts. */
    record User(int partition, int index) {}

    static TxSource source(KeySpace keys, LoadOptions options, SplittableRandom random) {
        SocialNetwork network = new SocialNetwork(keys, options.globalPercent());
        return () -> network.next(random);
    }

    TxPlan next(SplittableRandom random) {
        int dice = random.nextInt(100);
        User user = new User(random.nextInt(keys.partitions()), Math.min(users - 1, keys.pickRank(random) / 3));
        if (dice < TIMELINE_PERCENT) {
            return timeline(user);
        }
        if (dice < TIMELINE_PERCENT + POST_PERCENT) {
            return post(user, message(random));
        }
        return follow(user, candidates(user).get(random.nextInt(CANDIDATES)));
    }

    Bytes posts(User user) {
        return keys.key(user.partition(), 3 * user.index());
    }

    Bytes consumers(User user) {
        return keys.key(user.partition(), 3 * user.index() + 1);
    }

    Bytes producers(User user) {
        return keys.key(user.partition(), 3 * user.index() + 2);
    }

    /** The users {@code user} may follow: a pure function of the user, the key space and {@code --global}. */
    List<User> candidates(User user) {
        SplittableRandom random = new SplittableRandom(
                CANDIDATE_SEED ^ ((long) user.partition() << 32) ^ user.index() * 0x9E3779B97F4A7C15L);
        List<User> candidates = new ArrayList<>(CANDIDATES);
        for (int i = 0; i < CANDIDATES; i++) {
            boolean remote = keys.partitions() >= 2 && random.nextInt(100) < globalPercent;
            int partition = remote
                    ? ReadWriteTransactions.otherPartition(keys.partitions(), user.partition(), random)
                    : user.partition();
            int index = random.nextInt(users);
            if (partition == user.partition() && index == user.index()) {
                index = (index + 1) % users;
            }
            candidates.add(new User(partition, index));
        }
        return candidates;
    }

    private static Bytes message(SplittableRandom random) {
        byte[] text = new byte[random.nextInt(POST_CHARS_MIN, POST_CHARS_MAX + 1)];
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) ('a' + random.nextInt(26));
        }
        return Bytes.wrap(text);
    }

    TxPlan post(User user, Bytes message) {
        Bytes posts = posts(user);
        return new Plan(TxKind.LOCAL, List.of(posts)) {
            @Override
            public Map<Bytes, Bytes> writes(List<Bytes> values) {
                return Map.of(posts, BoundedList.append(values.get(0), message, POSTS_KEPT));
            }
        };
    }

    TxPlan follow(User follower, User followed) {
        Bytes producers = producers(follower);
        Bytes consumers = consumers(followed);
        TxKind kind = follower.partition() == followed.partition() ? TxKind.LOCAL : TxKind.GLOBAL;
        return new Plan(kind, List.of(producers, consumers)) {
            @Override
            public Map<Bytes, Bytes> writes(List<Bytes> values) {
                Map<Bytes, Bytes> writes = new LinkedHashMap<>();
                writes.put(producers, BoundedList.appendAbsent(values.get(0), posts(followed), FOLLOWS_KEPT));
                writes.put(consumers, BoundedList.appendAbsent(values.get(1), posts(follower), FOLLOWS_KEPT));
                return writes;
            }
        };
    }

    TxPlan timeline(User user) {
        Set<Bytes> reads = new LinkedHashSet<>();
        reads.add(producers(user));
        for (User candidate : candidates(user)) {
            reads.add(posts(candidate));
        }
        return TxPlan.of(TxKind.READ_ONLY, List.copyOf(reads), Map.of());
    }

    private abstract static class Plan implements TxPlan {
        private final TxKind kind;
        private final List<Bytes> reads;

        Plan(TxKind kind, List<Bytes> reads) {
            this.kind = kind;
            this.reads = reads;
        }

        @Override
        public TxKind kind() {
            return kind;
        }

        @Override
        public List<Bytes> reads() {
            return reads;
        }
    }
}
