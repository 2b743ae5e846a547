package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random inputs for partition 0 of a three-partition world: local and global commit requests over a small key
 * space (so conflicts are common), votes from partitions 1 and 2 (some before delivery, some asking for a
 * reply), abort requests, and retried commits. Each peer's vote on a global transaction is fixed when the
 * transaction is created, as it is in a real run (a partition's vote is a function of its log).
 */
final class RandomEngineInputs {
    static final int PARTITION = 0;
    private static final List<Integer> PEERS = List.of(1, 2);

    /** One input to an engine. */
    interface Input {
        List<Effect> applyTo(PartitionEngine engine);
    }

    record Deliver(Command command) implements Input {
        @Override
        public List<Effect> applyTo(PartitionEngine engine) {
            return engine.deliver(command);
        }
    }

    record ReceiveVote(Vote vote) implements Input {
        @Override
        public List<Effect> applyTo(PartitionEngine engine) {
            return engine.receiveVote(vote);
        }
    }

    /** A global transaction, its peers' fixed votes, and those votes not sent yet. */
    private record Global(CommitRequest request, Map<Integer, Vote> peerVotes, List<Vote> unsent) {}

    private final Random random;
    private final int keySpace;
    private long sequence;
    private final List<Command> delivered = new ArrayList<>();
    private final List<Global> globals = new ArrayList<>();
    private final List<Global> undelivered = new ArrayList<>();
    /** Globals with votes not sent yet, oldest first. */
    private final List<Global> awaitingVotes = new ArrayList<>();

    RandomEngineInputs(Random random, int keySpace) {
        this.random = random;
        this.keySpace = keySpace;
    }

    /** The next input, given the state of the engine it will be applied to (and any identical copy). */
    Input next(PartitionEngine engine) {
        int roll = random.nextInt(100);
        if (roll < 35) {
            return deliver(commitRequest(List.of(PARTITION), engine));
        }
        if (roll < 50) {
            Global global = newGlobal(engine);
            if (random.nextInt(10) < 7) {
                undelivered.remove(global);
                return deliver(global.request());
            }
            return unsentVote(global);
        }
        if (roll < 55 && !globals.isEmpty()) {
            Input decision = decision(engine, globals.get(random.nextInt(globals.size())));
            if (decision != null) {
                return decision;
            }
        }
        if (roll < 60 && !undelivered.isEmpty()) {
            Global global = undelivered.remove(random.nextInt(undelivered.size()));
            return deliver(global.request());
        }
        if (roll < 80 && !awaitingVotes.isEmpty()) {
            // Usually the oldest, which is likely the head of PENDING; sometimes a later one, arriving early.
            int index = random.nextBoolean() ? 0 : random.nextInt(awaitingVotes.size());
            return unsentVote(awaitingVotes.get(index));
        }
        if (roll < 85 && !globals.isEmpty()) {
            Global stuck = oldestUndecided(engine);
            if (stuck != null && random.nextBoolean()) {
                return vote(stuck); // a retransmission: the first copy may have been dropped from the buffer
            }
            return vote(globals.get(random.nextInt(globals.size()))); // a duplicate, or one sent early
        }
        if (roll < 90 && !globals.isEmpty()) {
            Global global = globals.get(random.nextInt(globals.size()));
            int requester = PEERS.get(random.nextInt(PEERS.size()));
            return deliver(new AbortRequest(
                    global.request().tid(),
                    global.request().participants(),
                    requester,
                    global.request().snapshotAt(PARTITION)));
        }
        if (!delivered.isEmpty()) {
            return new Deliver(delivered.get(random.nextInt(delivered.size()))); // a retry
        }
        return deliver(commitRequest(List.of(PARTITION), engine));
    }

    /**
     * A participant's logged decision on a global this engine delivered: the outcome its votes give (this
     * partition's own vote is read from the engine, being a function of its log). Null if not delivered yet.
     */
    private Input decision(PartitionEngine engine, Global global) {
        Outcome outcome = engine.outcomeOf(global.request().tid());
        if (outcome == null) {
            Vote own = null;
            for (PartitionEngine.Pending pending : engine.pendingQueue()) {
                if (pending.request.tid().equals(global.request().tid()) && pending.votes != null) {
                    own = pending.ownVote;
                }
            }
            if (own == null) {
                return null;
            }
            List<Long> versions = new ArrayList<>();
            AbortReason abort = null;
            for (int participant : global.request().participants()) {
                Vote vote = participant == PARTITION ? own : global.peerVotes().get(participant);
                if (!vote.commit() && abort == null) {
                    abort = vote.reason();
                }
                versions.add(vote.commitNumber());
            }
            outcome = abort == null
                    ? Outcome.committed(global.request().tid(), global.request().participants(), versions)
                    : Outcome.aborted(global.request().tid(), global.request().participants(), abort);
        } else if (!outcome.participants().equals(global.request().participants())) {
            return null; // decided as something else (an abort request's tombstone names the same participants)
        }
        List<Integer> participants = global.request().participants();
        return deliver(new Decision(outcome, participants.get(random.nextInt(participants.size()))));
    }

    private Input deliver(Command command) {
        delivered.add(command);
        return new Deliver(command);
    }

    private Input unsentVote(Global global) {
        Vote vote = global.unsent().remove(random.nextInt(global.unsent().size()));
        if (global.unsent().isEmpty()) {
            awaitingVotes.remove(global);
        }
        return new ReceiveVote(vote.withReplyWanted(random.nextInt(4) == 0));
    }

    /** The global transaction at the head of PENDING, the one every later transaction waits for. */
    private Global oldestUndecided(PartitionEngine engine) {
        for (PartitionEngine.Pending head : engine.pendingQueue()) {
            for (Global global : globals) {
                if (global.request().tid().equals(head.request.tid())) {
                    return global;
                }
            }
            return null;
        }
        return null;
    }

    private Input vote(Global global) {
        List<Vote> votes = new ArrayList<>(global.peerVotes().values());
        Vote vote = votes.get(random.nextInt(votes.size()));
        return new ReceiveVote(vote.withReplyWanted(random.nextInt(4) == 0));
    }

    private Global newGlobal(PartitionEngine engine) {
        List<Integer> participants = new ArrayList<>(List.of(PARTITION));
        for (int peer : PEERS) {
            if (random.nextBoolean() || (peer == PEERS.get(PEERS.size() - 1) && participants.size() == 1)) {
                participants.add(peer);
            }
        }
        CommitRequest request = commitRequest(participants, engine);
        Map<Integer, Vote> peerVotes = new HashMap<>();
        for (int peer : participants.subList(1, participants.size())) {
            boolean commit = random.nextInt(5) > 0;
            AbortReason reason =
                    commit ? null : AbortReason.readKeyOverwritten(peer, key(), 1 + random.nextInt(50), false);
            peerVotes.put(peer, new Vote(request.tid(), peer, commit ? 1 + random.nextInt(1_000) : 0, reason, false));
        }
        Global global = new Global(request, peerVotes, new ArrayList<>(peerVotes.values()));
        globals.add(global);
        awaitingVotes.add(global);
        undelivered.add(global);
        return global;
    }

    private CommitRequest commitRequest(List<Integer> participants, PartitionEngine engine) {
        TxId tid = new TxId(0xAB, ++sequence);
        long snapshot = Math.max(0, engine.snapshotCounter() - random.nextInt(4));
        if (random.nextInt(40) == 0) {
            snapshot = engine.pendingSnapshotCounter() + 1; // no replica could have served it
        }
        List<Bytes> reads = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            reads.add(key());
        }
        List<Write> writes = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            Bytes value = random.nextInt(5) == 0 ? null : Bytes.utf8("v" + sequence + "." + i);
            writes.add(new Write(key(), value));
        }
        return new CommitRequest(tid, participants, snapshot, reads, writes);
    }

    Bytes key() {
        return Bytes.utf8("k" + random.nextInt(keySpace));
    }
}
