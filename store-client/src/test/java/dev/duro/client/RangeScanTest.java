package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.StoreEntry;
import dev.duro.core.Write;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.PartitionerSpec;
import dev.duro.core.wire.ScanReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link RangeScan} against its naive twin on seeded random input: stores spread over hash or range partitions,
 * partitions that answer in small pages, the transaction's own puts and deletes, limits in both directions. The
 * answer must be the first {@code limit} keys of the store overlaid with the own writes; and the ranges it reports
 * observed must be exact, what certification needs: every key (present or absent) up to the last one returned lies
 * in a range observed at its partition, and inside those ranges the answer holds exactly the keys there.
 */
class RangeScanTest {
    private static final String ALPHABET = "abcd";

    private static Bytes randomKey(Random random) {
        StringBuilder key = new StringBuilder();
        for (int i = random.nextInt(3); i >= 0; i--) {
            key.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return Bytes.utf8(key.toString());
    }

    private static ClusterView view(Random random) {
        int partitions = 1 + random.nextInt(4);
        PartitionerSpec spec;
        if (random.nextBoolean()) {
            spec = PartitionerSpec.hash();
        } else {
            TreeSet<Bytes> splits = new TreeSet<>();
            while (splits.size() < partitions - 1) {
                splits.add(randomKey(random));
            }
            spec = PartitionerSpec.range(List.copyOf(splits));
        }
        List<ClusterInfoReply.PartitionInfo> infos = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            infos.add(new ClusterInfoReply.PartitionInfo(List.of(new HostPort("127.0.0.1", 7000 + p)), 0));
        }
        return new ClusterView(new ClusterInfoReply(1, "test", spec, infos, Limits.DEFAULT));
    }

    /** A partition that serves its keys in pages of at most {@code pageMax}, as a server under its scan maximum. */
    private static RangeScan.PageSource partitions(
            ClusterView view, NavigableMap<Bytes, Bytes> store, boolean descending, int pageMax, int[] requests) {
        return (partition, range, limit) -> {
            requests[0]++;
            assertFalse(range.overlaps(KeyRanges.RESERVED), "asked for reserved keys: " + range);
            NavigableMap<Bytes, Bytes> inRange = range.to() == null
                    ? store.tailMap(range.from(), true)
                    : store.subMap(range.from(), true, range.to(), false);
            List<StoreEntry> entries = new ArrayList<>();
            boolean more = false;
            for (Map.Entry<Bytes, Bytes> entry : (descending ? inRange.descendingMap() : inRange).entrySet()) {
                if (view.partitionOf(entry.getKey()) != partition) {
                    continue;
                }
                if (entries.size() == Math.min(limit, pageMax)) {
                    more = true;
                    break;
                }
                entries.add(new StoreEntry(entry.getKey(), entry.getValue(), 1));
            }
            return CompletableFuture.completedFuture(new ScanReply(1, partition, 1, entries, more));
        };
    }

    @Test
    void answersAndObservedRangesMatchTheNaiveTwin() {
        for (int seed = 0; seed < 2_000; seed++) {
            Random random = new Random(seed);
            ClusterView view = view(random);
            TreeMap<Bytes, Bytes> store = new TreeMap<>();
            for (int i = random.nextInt(30); i > 0; i--) {
                store.put(randomKey(random), Bytes.utf8("v" + i));
            }
            if (random.nextInt(4) == 0) {
                store.put(Bytes.utf8(AdminRequest.RESERVED_PREFIX.toUtf8() + "record"), Bytes.utf8("secret"));
            }
            Bytes from = random.nextInt(5) == 0 ? Bytes.EMPTY : randomKey(random);
            Bytes to = random.nextInt(4) == 0 ? null : randomKey(random);
            if (to != null && from.compareTo(to) >= 0) {
                continue;
            }
            KeyRange asked = new KeyRange(from, to);
            boolean descending = random.nextBoolean();
            int limit = 1 + random.nextInt(12);
            List<Write> own = new ArrayList<>();
            TreeMap<Bytes, Bytes> expected = new TreeMap<>(store);
            expected.keySet().removeIf(KeyRanges.RESERVED::contains);
            for (int i = random.nextInt(5); i > 0; i--) {
                Bytes key = randomKey(random);
                if (!asked.contains(key) || own.stream().anyMatch(w -> w.key().equals(key))) {
                    continue;
                }
                Write write = random.nextBoolean() ? Write.delete(key) : Write.put(key, Bytes.utf8("own"));
                own.add(write);
                if (write.value() == null) {
                    expected.remove(key);
                } else {
                    expected.put(key, write.value());
                }
            }
            int[] requests = {0};
            RangeScan.Result result = RangeScan.run(
                    view,
                    asked,
                    limit,
                    descending,
                    own,
                    partitions(view, store, descending, 1 + random.nextInt(4), requests));
            String context = "seed " + seed + ", " + asked + (descending ? " desc" : " asc") + " limit " + limit;

            NavigableMap<Bytes, Bytes> inRange =
                    to == null ? expected.tailMap(from, true) : expected.subMap(from, true, to, false);
            List<Bytes> wanted = new ArrayList<>(descending ? inRange.descendingKeySet() : inRange.keySet());
            wanted = wanted.subList(0, Math.min(limit, wanted.size()));
            List<Bytes> got = new ArrayList<>();
            for (KeyValue entry : result.entries()) {
                got.add(entry.key());
                assertEquals(expected.get(entry.key()), entry.value(), context);
            }
            assertEquals(wanted, got, context);

            KeyRange observedAll =
                    got.size() < limit ? asked : KeyRanges.observedUpTo(asked, got.get(got.size() - 1), descending);
            for (int probe = 0; probe < 40; probe++) {
                Bytes key = randomKey(random);
                if (!observedAll.contains(key)) {
                    continue;
                }
                List<KeyRange> ranges = result.observed().getOrDefault(view.partitionOf(key), List.of());
                assertTrue(ranges.stream().anyMatch(r -> r.contains(key)), context + ": " + key + " not observed");
            }
            result.observed().forEach((partition, ranges) -> {
                for (KeyRange range : ranges) {
                    assertTrue(KeyRanges.intersection(range, observedAll).equals(range), context + ": " + range);
                    for (Bytes key : expected.keySet()) {
                        if (range.contains(key) && view.partitionOf(key) == partition) {
                            assertTrue(got.contains(key), context + ": observed " + range + " but missed " + key);
                        }
                    }
                }
            });
        }
    }
}
