package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.VersionedValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToIntFunction;

/**
 * The parts of {@code getAll} that update and read-only transactions share: cutting the keys into requests (by
 * partition, then into groups one reply frame holds) and putting the answers back in the keys' order.
 */
final class MultiReads {
    /**
     * Keys per request. At the default value limit (1 MiB) 32 values fill half of the default 64 MiB frame, so a
     * reply fits whatever the values; a server refuses one that would not ({@code LIMIT_EXCEEDED}).
     */
    static final int KEYS_PER_REQUEST_MAX = 32;

    /** One request's keys and the values it brings back, in the same order. */
    record Group(List<Bytes> keys, CompletableFuture<List<VersionedValue>> values) {}

    private MultiReads() {}

    /** {@code keys} without repeats, in their order, each checked against the key limit. */
    static List<Bytes> distinct(Collection<Bytes> keys, Limits limits) {
        List<Bytes> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
        distinct.forEach(limits::checkKey);
        return distinct;
    }

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

    /**
     * Once every group has answered: the value of each of {@code order}'s keys, in that order, null when absent;
     * keys in {@code known} (a transaction's own writes) take the value given there.
     */
    static CompletableFuture<Map<Bytes, Bytes>> collect(
            List<Bytes> order, Map<Bytes, Bytes> known, List<Group> groups) {
        CompletableFuture<?>[] answers = groups.stream().map(Group::values).toArray(CompletableFuture<?>[]::new);
        return CompletableFuture.allOf(answers).thenApply(all -> {
            Map<Bytes, Bytes> read = new HashMap<>(known);
            for (Group group : groups) {
                List<VersionedValue> values = group.values().join();
                for (int i = 0; i < group.keys().size(); i++) {
                    read.put(group.keys().get(i), values.get(i).value());
                }
            }
            Map<Bytes, Bytes> ordered = new LinkedHashMap<>();
            for (Bytes key : order) {
                ordered.put(key, read.get(key));
            }
            return Collections.unmodifiableMap(ordered);
        });
    }
}
