package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.consensus.GroupCommitter;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.node.AppendMessage;
import dev.duro.core.node.AppendReply;
import dev.duro.core.node.LogEntryCodec;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.OutcomeReply;
import io.netty.channel.Channel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commands for a partition this node does not lead go to the leader's node, whose committer queues them into its own
 * entries (docs/replication.md, "Appends go to the leader"), on a real cluster of 3 nodes, 2 partitions and 3
 * replicas in this JVM.
 */
class LeaderAppendsTest {
    @TempDir
    Path data;

    private TestCluster cluster;
    private DuroClient client;

    @BeforeEach
    void start() throws Exception {
        cluster = TestCluster.builder(data).label("leader-appends").start();
        client = cluster.newClient();
    }

    @AfterEach
    void stop() throws Exception {
        cluster.close();
    }

    private PartitionStateMachine replica(String node, int partition) {
        return cluster.server(node).consensus().replica(partition);
    }

    private GroupCommitter committer(String node, int partition) {
        return cluster.server(node).consensus().committer(partition);
    }

    private LeaderAppends appends(String node) {
        LeaderAppends appends = cluster.server(node).appends();
        assertTrue(appends != null, node + " started");
        return appends;
    }

    private String follower(int partition) {
        String leader = cluster.awaitLeader(partition);
        return cluster.nodeIds().stream()
                .filter(n -> !n.equals(leader))
                .findFirst()
                .orElseThrow();
    }

    private CommitRequest put(String node, int partition, TxId tid, String key, String value) {
        Bytes k = Bytes.utf8(key);
        return new CommitRequest(
                tid,
                List.of(partition),
                replica(node, partition).snapshotCounter(),
                List.of(k),
                List.of(Write.put(k, Bytes.utf8(value))));
    }

    private Outcome awaitOutcome(String node, int partition, TxId tid) {
        return Await.until("outcome of " + tid + " at partition " + partition + " on " + node, () -> {
            Outcome outcome = replica(node, partition).outcomeOf(tid);
            return outcome == null ? Await.Poll.notYet("not finished") : Await.Poll.done(outcome);
        });
    }

    /** Read-only reads see a commit made outside the client once the cuts cover it. */
    private void awaitValue(String key, String value) {
        Await.until(key + " = " + value + " at the newest cut", () -> {
            String read = client.get(key);
            return value.equals(read) ? Await.Poll.done(read) : Await.Poll.notYet("read " + read);
        });
    }

    @Test
    void aFollowersCommandRidesInTheLeadersEntries() throws Exception {
        String key = TestCluster.keysOf(client.cluster(), 0, "fwd-", 1).get(0);
        String follower = follower(0);
        awaitLinks(); // a command for a link that is not open yet goes through Ratis's client
        long entriesBefore = committer(follower, 0).entriesSent();
        long handedBefore = committer(follower, 0).commandsHandedOff();
        long appendsBefore = appends(follower).handedOff();
        long messagesBefore = appends(follower).messages();
        TxId tid = new TxId(0xF0D, 1);

        committer(follower, 0)
                .submit(put(follower, 0, tid, key, "through the leader"))
                .get(30, TimeUnit.SECONDS);

        assertTrue(awaitOutcome(follower, 0, tid).committed());
        assertEquals(handedBefore + 1, committer(follower, 0).commandsHandedOff(), "the leader took it");
        assertEquals(appendsBefore + 1, appends(follower).handedOff());
        assertEquals(messagesBefore + 1, appends(follower).messages(), "in one message");
        assertEquals(0, appends(follower).fellBack(), "none went through Ratis's client after all");
        assertEquals(entriesBefore, committer(follower, 0).entriesSent(), "the follower proposed no entry of its own");
        awaitValue(key, "through the leader");
    }

    @Test
    void commandsHandedOffTogetherShareAMessage() throws Exception {
        List<String> keys = TestCluster.keysOf(client.cluster(), 0, "many-", 200);
        String follower = follower(0);
        awaitLinks();
        long appendsBefore = appends(follower).handedOff();
        long messagesBefore = appends(follower).messages();
        List<CommitRequest> commands = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            commands.add(put(follower, 0, new TxId(0xF0C, i + 1), keys.get(i), "v" + i));
        }
        // Submitted in one task of the link's event loop, as a coordinator submits a batch of commits: the outbox's
        // flush runs on that loop too, after the task, and so finds them all.
        Channel link = cluster.server(follower).peers().liveChannel(cluster.awaitLeader(0));
        assertTrue(link != null, "a live link to the leader");
        List<CompletableFuture<Void>> appended = link.eventLoop()
                .submit(() -> commands.stream()
                        .map(command -> committer(follower, 0).submit(command))
                        .toList())
                .get(30, TimeUnit.SECONDS);
        CompletableFuture.allOf(appended.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        assertEquals(appendsBefore + keys.size(), appends(follower).handedOff());
        assertEquals(messagesBefore + 1, appends(follower).messages(), "one message for " + keys.size() + " commands");
        assertEquals(0, appends(follower).fellBack());
        awaitValue(keys.get(keys.size() - 1), "v" + (keys.size() - 1));
    }

    @Test
    void aNodeTakesOnlyWellFormedEntriesForAPartitionItLeads() throws Exception {
        String key = TestCluster.keysOf(client.cluster(), 0, "not-leader-", 1).get(0);
        String follower = follower(0);
        TxId tid = new TxId(0xF0D, 2);
        try (RawConnection connection = new RawConnection(cluster.clientAddress(follower))) {
            connection.send(new AppendMessage(41, 0, entry(put(follower, 0, tid, key, "refused"))));
            AppendReply reply = assertInstanceOf(AppendReply.class, connection.receiveMessage());
            assertEquals(41, reply.id());
            assertEquals(AppendReply.Status.NOT_LEADER, reply.status());
            assertTrue(reply.detail().contains(cluster.awaitLeader(0)), reply.detail());
        }
        String leader = cluster.awaitLeader(0);
        TxId accepted = new TxId(0xF0D, 3);
        try (RawConnection connection = new RawConnection(cluster.clientAddress(leader))) {
            // Partition 0's leader is handed a command of partition 1 only, then bytes that are no entry.
            String other = TestCluster.keysOf(client.cluster(), 1, "other-", 1).get(0);
            connection.send(new AppendMessage(
                    43, 0, entry(put(leader, 0, new TxId(0xF0D, 4), key, "x"), put(leader, 1, tid, other, "y"))));
            AppendReply foreign = assertInstanceOf(AppendReply.class, connection.receiveMessage());
            assertEquals(AppendReply.Status.FAILED, foreign.status(), foreign.toString());
            assertTrue(foreign.detail().contains("does not take part"), foreign.detail());
            connection.send(new AppendMessage(44, 0, Bytes.wrap(new byte[] {2, 1, 99})));
            AppendReply garbage = assertInstanceOf(AppendReply.class, connection.receiveMessage());
            assertEquals(AppendReply.Status.FAILED, garbage.status(), garbage.toString());

            connection.send(new AppendMessage(42, 0, entry(put(leader, 0, accepted, key, "appended"))));
            AppendReply reply = assertInstanceOf(AppendReply.class, connection.receiveMessage());
            assertEquals(new AppendReply(42, AppendReply.Status.APPENDED, ""), reply);
        }
        assertTrue(awaitOutcome(leader, 0, accepted).committed());
        assertEquals(null, replica(leader, 0).outcomeOf(tid), "the refused command was never delivered");
        assertEquals(null, replica(leader, 0).outcomeOf(new TxId(0xF0D, 4)), "nor the one beside a foreign command");
        awaitValue(key, "appended");
    }

    private Bytes entry(CommitRequest... commands) {
        return Bytes.wrap(new LogEntryCodec(Limits.DEFAULT).encode(List.of(commands)));
    }

    @Test
    void globalsCoordinatedAtAFollowerLeaveNoEntriesToFollowers() throws Exception {
        List<String> xs = TestCluster.keysOf(client.cluster(), 0, "gx-", 20);
        List<String> ys = TestCluster.keysOf(client.cluster(), 1, "gy-", 20);
        for (int round = 0; ; round++) {
            String leader0 = cluster.awaitLeader(0);
            String leader1 = cluster.awaitLeader(1);
            // The coordinator leads partition 1 at most, so it hands at least partition 0's half to another node.
            String coordinator = follower(0);
            awaitLinks();
            long[] before = followerEntries(leader0, leader1);
            long handedBefore = appends(coordinator).handedOff();
            try (RawConnection connection = new RawConnection(cluster.clientAddress(coordinator))) {
                for (int i = 0; i < xs.size(); i++) {
                    CommitTransaction global = new CommitTransaction(
                            1000 + i,
                            new TxId(0xF0E + round, i + 1),
                            List.of(participant(coordinator, 0, xs.get(i)), participant(coordinator, 1, ys.get(i))));
                    OutcomeReply reply = assertInstanceOf(OutcomeReply.class, connection.call(global));
                    assertTrue(reply.outcome().committed(), reply.toString());
                }
            }
            boolean leadersKept = leader0.equals(cluster.awaitLeader(0)) && leader1.equals(cluster.awaitLeader(1));
            if (!leadersKept && round < 3) {
                continue; // an election moved a leader: the followers' committers may have used the client
            }
            assertTrue(leadersKept, "the leaders kept their place for one round of four");
            assertTrue(
                    appends(coordinator).handedOff() - handedBefore >= xs.size(),
                    "the globals' halves for partition 0 went to its leader's node");
            long[] after = followerEntries(leader0, leader1);
            for (int i = 0; i < after.length; i++) {
                assertEquals(before[i], after[i], "entries followers' committers proposed through Ratis's client");
            }
            return;
        }
    }

    private CommitTransaction.Participant participant(String node, int partition, String key) {
        Bytes k = Bytes.utf8(key);
        return new CommitTransaction.Participant(
                partition, replica(node, partition).snapshotCounter(), List.of(k), List.of(Write.put(k, k)));
    }

    /** Every node's links to the others are open (frontiers open them within moments of the start). */
    private void awaitLinks() {
        for (String from : cluster.nodeIds()) {
            for (String to : cluster.nodeIds()) {
                if (!from.equals(to)) {
                    Await.until("a link from " + from + " to " + to, () -> {
                        Object live = cluster.server(from).peers().liveChannel(to);
                        return live == null ? Await.Poll.notYet("connecting") : Await.Poll.done(live);
                    });
                }
            }
        }
    }

    /** Entries each node's committer of each partition it does not lead proposed through Ratis's client. */
    private long[] followerEntries(String leader0, String leader1) {
        List<String> nodes = cluster.nodeIds();
        long[] entries = new long[nodes.size() * 2];
        for (int n = 0; n < nodes.size(); n++) {
            String node = nodes.get(n);
            entries[2 * n] = node.equals(leader0) ? 0 : throughClient(node, 0);
            entries[2 * n + 1] = node.equals(leader1) ? 0 : throughClient(node, 1);
        }
        return entries;
    }

    private long throughClient(String node, int partition) {
        return committer(node, partition).entriesThroughClient();
    }
}
