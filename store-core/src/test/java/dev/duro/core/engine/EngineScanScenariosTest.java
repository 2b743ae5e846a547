package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.StoreEntry;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.store.ScanResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scans through the engine's read path, and a phantom that the engine aborts. */
class EngineScanScenariosTest {
    private static final KeyRange USERS = KeyRange.prefix(Bytes.utf8("user/"));

    private final PartitionEngine engine = new PartitionEngine(0, EngineSettings.DEFAULT);

    private static CommitRequest request(long client, long snapshot, List<Write> writes, List<KeyRange> ranges) {
        return new CommitRequest(new TxId(client, 1), List.of(0), List.of(snapshot), List.of(), writes, ranges);
    }

    private static Write put(String key) {
        return Write.put(Bytes.utf8(key), Bytes.utf8("v-" + key));
    }

    @Test
    void aScanReadsTheRangeAtItsSnapshotInEitherOrderAndNoHigherThanSc() {
        engine.deliver(request(1, 0, List.of(put("user/b"), put("user/a"), put("zz")), List.of()));
        engine.deliver(request(2, 1, List.of(put("user/c"), Write.delete(Bytes.utf8("user/a"))), List.of()));

        ScanResult atOne = engine.scan(USERS, 10, false, 1);
        assertEquals(List.of("user/a", "user/b"), keys(atOne));
        ScanResult atTwo = engine.scan(USERS, 1, true, 2);
        assertEquals(List.of("user/c"), keys(atTwo));
        assertTrue(atTwo.limited());
        assertEquals(new KeyRange(Bytes.utf8("user/c"), USERS.to()), atTwo.observed(USERS, true));
        assertThrows(IllegalArgumentException.class, () -> engine.scan(USERS, 10, false, 3));
    }

    @Test
    void anInsertIntoAScannedRangeAfterTheSnapshotAbortsTheScannerAtTheEngine() {
        engine.deliver(request(1, 0, List.of(put("user/a")), List.of()));
        engine.deliver(request(2, 1, List.of(put("user/b")), List.of())); // the phantom, after snapshot 1

        List<Effect> effects = engine.deliver(request(3, 1, List.of(put("count")), List.of(USERS)));

        AbortReason reason = ((Effect.Reply) effects.get(0)).outcome().reason();
        assertEquals(AbortReason.readKeyOverwritten(0, Bytes.utf8("user/b"), 2, false), reason);
        List<Effect> fresh = engine.deliver(request(4, 2, List.of(put("count")), List.of(USERS)));
        assertTrue(((Effect.Reply) fresh.get(0)).outcome().committed());
    }

    private static List<String> keys(ScanResult result) {
        return result.entries().stream().map(StoreEntry::key).map(Bytes::toUtf8).toList();
    }
}
