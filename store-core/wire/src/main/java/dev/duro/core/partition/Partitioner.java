package dev.duro.core.partition;

import dev.duro.core.Bytes;

/**
 * Maps every key to the partition that stores it. The map is part of the cluster's configuration: every
 * server and client must use the same one, and changing it moves keys to other partitions.
 *
 * <p>Implementations are immutable, deterministic and cheap: the client calls {@link #partitionOf} on every
 * read and write.
 */
public interface Partitioner {
    /** How many partitions there are; partitions are numbered {@code 0 .. partitionCount() - 1}. */
    int partitionCount();

    /** The partition that stores {@code key}, in {@code [0, partitionCount())}. */
    int partitionOf(Bytes key);

    /** A one-line description for logs and admin output, precise enough to compare two configurations. */
    String describe();
}
