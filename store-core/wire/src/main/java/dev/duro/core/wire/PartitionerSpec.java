package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * How a cluster maps keys to partitions, as far as a client must know to route requests.
 *
 * @param splitPoints for {@link Kind#RANGE}: the first key of partitions 1..n-1, strictly ascending and non-empty
 *     (partition 0 holds every key below the first split point); empty for {@link Kind#HASH}
 */
public record PartitionerSpec(Kind kind, List<Bytes> splitPoints) {
    /** Partitioner kinds with their wire codes: append new kinds (a new hash function, say), never renumber. */
    public enum Kind {
        HASH(1),
        RANGE(2);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        public static @Nullable Kind fromCode(int code) {
            for (Kind kind : values()) {
                if (kind.code == code) {
                    return kind;
                }
            }
            return null;
        }
    }

    public PartitionerSpec {
        Objects.requireNonNull(kind, "kind");
        splitPoints = List.copyOf(splitPoints);
        checkArgument(kind == Kind.RANGE || splitPoints.isEmpty(), "only a range partitioner has split points");
        checkArgument(splitPointsValid(splitPoints), "split points must be non-empty and strictly ascending");
    }

    public static PartitionerSpec hash() {
        return new PartitionerSpec(Kind.HASH, List.of());
    }

    public static PartitionerSpec range(List<Bytes> splitPoints) {
        return new PartitionerSpec(Kind.RANGE, splitPoints);
    }

    static boolean splitPointsValid(List<Bytes> splitPoints) {
        for (int i = 0; i < splitPoints.size(); i++) {
            if (splitPoints.get(i).size() == 0
                    || (i > 0 && splitPoints.get(i).compareTo(splitPoints.get(i - 1)) <= 0)) {
                return false;
            }
        }
        return true;
    }
}
