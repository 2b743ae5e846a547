package dev.duro.client;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/** How a multi-key read is cut into requests: by partition, then into groups that one reply frame holds. */
final class MultiReads {
    /**
     * Keys per request. At the default value limit (1 MiB) 32 values fill half of the default 64 MiB frame, so a
     * reply fits whatever the values; a server refuses one that would not ({@code LIMIT_EXCEEDED}).
     */
    static final int KEYS_PER_REQUEST_MAX = 32;

    private MultiReads() {}

    /** {@code keys} by partition (ascending), each partition's keys in their order, cut into request-sized groups. */
    static Map<Integer, List<List<Bytes>>> requests(List<Bytes> keys, ToIntFunction<Bytes> partitionOf) {
        Map<Integer, List<List<Bytes>>> byPartition = new TreeMap<>();
        for (Bytes key : keys) {
            List<List<Bytes>> groups = byPartition.computeIfAbsent(partitionOf.applyAsInt(key), p -> new ArrayList<>());
            if (groups.isEmpty() || groups.get(groups.size() - 1).size() == KEYS_PER_REQUEST_MAX) {
                groups.add(new ArrayList<>());
            }
            groups.get(groups.size() - 1).add(key);
        }
        return byPartition;
    }
}
