package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SocialNetworkTest {
    private final LoadOptions options = Fixtures.options("--workload", "social");
    private final KeySpace keys = Fixtures.keys(options);
    private final SocialNetwork network = new SocialNetwork(keys, options.globalPercent());

    @Test
    void mixIsHalfTimelinesFortyPercentPostsTenPercentFollows() {
        int timelines = 0;
        int posts = 0;
        int follows = 0;
        int globalFollows = 0;
        for (TxPlan plan : Fixtures.plans(options)) {
            if (plan.kind() == TxKind.READ_ONLY) {
                timelines++;
            } else if (plan.reads().size() == 1) {
                posts++;
                assertEquals(TxKind.LOCAL, plan.kind());
            } else {
                follows++;
                globalFollows += plan.kind() == TxKind.GLOBAL ? 1 : 0;
            }
        }
        assertEquals(50, timelines * 100.0 / Fixtures.PLANS, 1.5);
        assertEquals(40, posts * 100.0 / Fixtures.PLANS, 1.5);
        assertEquals(10, follows * 100.0 / Fixtures.PLANS, 1.5);
        assertEquals(50, globalFollows * 100.0 / follows, 6);
    }

    @Test
    void localPlansStayInOnePartitionAndGlobalFollowsSpanTwo() {
        for (TxPlan plan : Fixtures.plans(options)) {
            long partitions = Fixtures.partitionsTouched(plan);
            switch (plan.kind()) {
                case LOCAL -> assertEquals(1, partitions);
                case GLOBAL -> assertEquals(2, partitions);
                case READ_ONLY -> {
                    assertTrue(plan.reads().size() >= 2 && plan.reads().size() <= 1 + SocialNetwork.CANDIDATES);
                    assertEquals(
                            plan.reads().size(),
                            plan.reads().stream().distinct().count());
                }
            }
        }
    }

    @Test
    void followsAndPostsUpdateTheListsFromWhatTheyRead() {
        Map<Bytes, Bytes> store = new HashMap<>();
        for (TxPlan plan : Fixtures.plans(options)) {
            Map<Bytes, Bytes> before = new HashMap<>(store);
            Map<Bytes, Bytes> writes = Fixtures.apply(store, plan);
            if (plan.kind() == TxKind.READ_ONLY) {
                continue;
            }
            for (Map.Entry<Bytes, Bytes> write : writes.entrySet()) {
                List<Bytes> old = BoundedList.decode(before.get(write.getKey()));
                List<Bytes> now = BoundedList.decode(write.getValue());
                int kept = plan.reads().size() == 1 ? SocialNetwork.POSTS_KEPT : SocialNetwork.FOLLOWS_KEPT;
                assertTrue(now.size() <= kept);
                assertTrue(write.getValue().size() <= kept * (1 + SocialNetwork.POST_CHARS_MAX));
                Bytes added = now.get(now.size() - 1);
                if (!old.contains(added)) {
                    assertEquals(
                            old.subList(Math.max(0, old.size() + 1 - kept), old.size()),
                            now.subList(0, now.size() - 1));
                }
                if (plan.reads().size() == 1) {
                    assertTrue(added.size() >= SocialNetwork.POST_CHARS_MIN
                            && added.size() <= SocialNetwork.POST_CHARS_MAX);
                } else {
                    assertEquals(4, added.size(), "a user id");
                }
            }
        }
    }

    @Test
    void followMakesEachUserAppearInTheOthersList() {
        SocialNetwork.User alice = new SocialNetwork.User(0, 7);
        SocialNetwork.User bob = network.candidates(alice).get(0);
        Map<Bytes, Bytes> store = new HashMap<>();
        Fixtures.apply(store, network.follow(alice, bob));
        Fixtures.apply(store, network.follow(alice, bob));
        assertEquals(List.of(network.posts(bob)), BoundedList.decode(store.get(network.producers(alice))));
        assertEquals(List.of(network.posts(alice)), BoundedList.decode(store.get(network.consumers(bob))));
        Fixtures.apply(store, network.post(bob, Bytes.utf8("hello, followers")));
        TxPlan timeline = network.timeline(alice);
        assertEquals(network.producers(alice), timeline.reads().get(0));
        assertTrue(timeline.reads().contains(network.posts(bob)), "timeline reads the posts of whom alice follows");
    }

    @Test
    void everyUsersListsLiveInItsPartitionAndCandidatesAreStable() {
        for (int partition = 0; partition < keys.partitions(); partition++) {
            for (int index = 0; index < keys.keysPerPartition() / 3; index += 37) {
                SocialNetwork.User user = new SocialNetwork.User(partition, index);
                assertEquals(partition, Fixtures.partitionOf(network.posts(user)));
                assertEquals(partition, Fixtures.partitionOf(network.consumers(user)));
                assertEquals(partition, Fixtures.partitionOf(network.producers(user)));
                assertEquals(network.candidates(user), new SocialNetwork(keys, 50).candidates(user));
                assertTrue(!network.candidates(user).contains(user));
            }
        }
    }
}
