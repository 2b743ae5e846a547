package dev.duro.core.sim;

import dev.duro.core.TxId;
import java.util.List;

/** One broken guarantee found in a run, with the transactions involved (to pick trace lines on replay). */
record Violation(Kind kind, String detail, List<TxId> transactions) {
    enum Kind {
        /** The committed history has a dependency cycle or a read no committed write explains. */
        SERIALIZABILITY,
        /** A read-only transaction failed to complete, or was certified. */
        READ_ONLY_ABORTED,
        /** Replicas of a partition disagree on state or outcomes, or a replica contradicted itself. */
        DIVERGENCE,
        /** Participants of a global transaction, or the client, disagree on its outcome. */
        ATOMICITY,
        /** Something never finished: a pending transaction, an undecided one, a stuck client. */
        LIVENESS,
        /**
         * A transaction missed a commit acknowledged before it began: a client's own earlier commit (the session
         * guarantee), or any commit, for a linearizable read-only transaction.
         */
        REAL_TIME,
        /** An engine snapshot did not restore to the same state. */
        SNAPSHOT,
        /** Code under test threw. */
        EXCEPTION
    }

    Violation {
        transactions = List.copyOf(transactions);
    }

    @Override
    public String toString() {
        return kind + ": " + detail;
    }
}
