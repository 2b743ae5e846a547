package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.SnapshotVectorReply;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Which error replies make the client ask the next node and which are final. Written out as sets, so a changed
 * classification shows here as well as in the code.
 */
class RetryClassificationTest {
    @Test
    void aCommitGoesToTheNextCoordinatorOnlyWhenThisNodeCannotServeIt() {
        Set<ErrorCode> nextCoordinator = Arrays.stream(ErrorCode.values())
                .filter(FrozenCommit::anotherCoordinatorMayAnswer)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(ErrorCode.class)));

        assertEquals(
                EnumSet.of(ErrorCode.UNKNOWN_PARTITION, ErrorCode.NOT_READY, ErrorCode.OVERLOADED), nextCoordinator);
    }

    @Test
    void anOutcomeNoLongerRetainedIsFinalForACommit() {
        assertFalse(FrozenCommit.anotherCoordinatorMayAnswer(ErrorCode.OUTCOME_UNKNOWN));
    }

    @Test
    void aRequestEveryNodeWouldRefuseIsFinalForACommit() {
        for (ErrorCode code :
                EnumSet.of(ErrorCode.LIMIT_EXCEEDED, ErrorCode.MALFORMED_FRAME, ErrorCode.UNSUPPORTED_VERSION)) {
            assertFalse(FrozenCommit.anotherCoordinatorMayAnswer(code), code.name());
        }
    }

    @Test
    void aReadGoesToTheNextReplicaOnlyWhenThisReplicaCannotServeIt() {
        Set<ErrorCode> nextReplica = Arrays.stream(ErrorCode.values())
                .filter(PartitionReader::anotherReplicaMayAnswer)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(ErrorCode.class)));

        assertEquals(
                EnumSet.of(ErrorCode.SNAPSHOT_NOT_READY, ErrorCode.NOT_READY, ErrorCode.UNKNOWN_PARTITION),
                nextReplica);
    }

    @Test
    void anErrorReplyBecomesTheExceptionItsCodeNames() {
        assertInstanceOf(
                SnapshotTooOldException.class,
                Transport.errorOf(new ErrorReply(1, ErrorCode.SNAPSHOT_TOO_OLD, "collected")),
                "a read at a snapshot the replicas no longer keep: the transaction starts over");
        UnavailableException unknown = assertInstanceOf(
                UnavailableException.class, Transport.errorOf(new ErrorReply(1, ErrorCode.OUTCOME_UNKNOWN, "gone")));
        assertTrue(unknown.outcomeUnknown());
        for (ErrorCode code : EnumSet.complementOf(EnumSet.of(ErrorCode.SNAPSHOT_TOO_OLD, ErrorCode.OUTCOME_UNKNOWN))) {
            ServerErrorException typed = assertInstanceOf(
                    ServerErrorException.class, Transport.errorOf(new ErrorReply(1, code, "why")), code.name());
            assertEquals(code, typed.code());
            assertTrue(typed.getMessage().contains("why"), typed.getMessage());
        }
    }

    @Test
    void aReplyOfTheWrongKindIsAnInternalError() {
        ServerErrorException error = assertInstanceOf(
                ServerErrorException.class, Transport.errorOf(new SnapshotVectorReply(1, new long[] {5})));

        assertEquals(ErrorCode.INTERNAL, error.code());
        assertTrue(error.getMessage().contains("unexpected reply"), error.getMessage());
    }

    @Test
    void aNodeSheddingLoadIsPassedOverByACommitButNotByARead() {
        // A commit's coordinator says whether its appends happened, so resending elsewhere is safe and useful; a
        // read moved to a peer would only move the overload there.
        assertTrue(FrozenCommit.anotherCoordinatorMayAnswer(ErrorCode.OVERLOADED));
        assertFalse(PartitionReader.anotherReplicaMayAnswer(ErrorCode.OVERLOADED));
    }
}
