package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.EffectHandler;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.OverloadedException;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.Vote;
import dev.duro.core.node.VoteMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the engines' effects on this node: replies (and word of an outcome no longer retained) complete
 * waiting commits, votes go to every replica of the target partitions (over the network, or straight to a local
 * replica), abort requests and decisions are proposed into the target partition's log.
 */
final class ServerEffects implements EffectHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ServerEffects.class);

    private final String selfId;
    private final OutcomeWaiters waiters;
    private final Supplier<ConsensusNode> consensus;
    private final PeerLinks peers;
    private final Executor localVotes;

    ServerEffects(
            String selfId,
            OutcomeWaiters waiters,
            Supplier<ConsensusNode> consensus,
            PeerLinks peers,
            Executor localVotes) {
        this.selfId = selfId;
        this.waiters = waiters;
        this.consensus = consensus;
        this.peers = peers;
        this.localVotes = localVotes;
    }

    @Override
    public void handle(int partition, List<Effect> effects) {
        Map<String, Map<Integer, List<Vote>>> votesByNode = null;
        for (Effect effect : effects) {
            if (effect instanceof Effect.Reply reply) {
                waiters.complete(reply.outcome());
            } else if (effect instanceof Effect.OutcomeUnknown unknown) {
                waiters.completeUnknown(unknown.tid());
            } else if (effect instanceof Effect.SendVote send) {
                if (votesByNode == null) {
                    votesByNode = new LinkedHashMap<>();
                }
                for (int target : send.to()) {
                    for (String node : consensus.get().topology().replicas().get(target)) {
                        votesByNode
                                .computeIfAbsent(node, n -> new LinkedHashMap<>())
                                .computeIfAbsent(target, t -> new ArrayList<>())
                                .add(send.vote());
                    }
                }
            } else if (effect instanceof Effect.ProposeAbort abort) {
                propose(abort.request(), abort.target(), "abort request");
            } else if (effect instanceof Effect.ProposeDecision decision) {
                propose(decision.decision(), decision.target(), "decision");
            }
        }
        if (votesByNode != null) {
            votesByNode.forEach(this::sendVotes);
        }
    }

    private void sendVotes(String node, Map<Integer, List<Vote>> votesByTarget) {
        votesByTarget.forEach((target, votes) -> {
            if (node.equals(selfId)) {
                // Never call a replica from inside another's effect handling: hand local votes to another thread.
                localVotes.execute(() -> deliverLocally(target, votes));
            } else {
                peers.send(node, new VoteMessage(target, votes));
            }
        });
    }

    /** Hands votes addressed to {@code target} to this node's replica of it, if any. */
    void deliverLocally(int target, List<Vote> votes) {
        PartitionStateMachine replica = consensus.get().replica(target);
        if (replica != null) {
            for (Vote vote : votes) {
                replica.receiveVote(vote);
            }
        }
    }

    /**
     * Proposes {@code command} into {@code target}'s log, in its leader's entries ({@link LeaderAppends}), best
     * effort: a proposal that fails or is shed is made again by the engine (abort requests and unlogged decisions are
     * retried on its timers).
     */
    private void propose(Command command, int target, String what) {
        try {
            consensus.get().committer(target).submit(command).whenComplete((ok, failure) -> {
                if (failure != null) {
                    LOG.debug(
                            "{} for {} into partition {} failed: {}", what, command.tid(), target, failure.toString());
                }
            });
        } catch (OverloadedException e) {
            LOG.debug("{} for {} into partition {} deferred: {}", what, command.tid(), target, e.getMessage());
        }
    }
}
