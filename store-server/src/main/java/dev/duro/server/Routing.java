package dev.duro.server;

import dev.duro.core.Bytes;
import dev.duro.core.partition.HashPartitioner;
import dev.duro.core.partition.Partitioner;
import dev.duro.core.partition.RangePartitioner;
import dev.duro.core.wire.PartitionerSpec;
import java.util.ArrayList;
import java.util.List;

/** Which partition holds a key, as configured by {@code cluster.partitioner}. */
final class Routing {
    private final Partitioner partitioner;
    private final PartitionerSpec spec;

    Routing(String description, int partitions) {
        if (description.equals("hash")) {
            partitioner = new HashPartitioner(partitions);
            spec = PartitionerSpec.hash();
        } else if (description.startsWith("range:")) {
            List<Bytes> splits = new ArrayList<>();
            for (String split : description.substring("range:".length()).split(",")) {
                splits.add(Bytes.utf8(split.trim()));
            }
            if (splits.size() != partitions - 1) {
                throw new IllegalArgumentException("cluster.partitioner range needs " + (partitions - 1)
                        + " split points for " + partitions + " partitions, got " + splits.size());
            }
            partitioner = new RangePartitioner(splits);
            spec = PartitionerSpec.range(splits);
        } else {
            throw new IllegalArgumentException(
                    "cluster.partitioner must be 'hash' or 'range:split1,split2,...', was '" + description + "'");
        }
    }

    int partitionOf(Bytes key) {
        return partitioner.partitionOf(key);
    }

    PartitionerSpec spec() {
        return spec;
    }
}
