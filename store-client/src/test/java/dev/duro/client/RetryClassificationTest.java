package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.duro.core.wire.ErrorCode;
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
}
