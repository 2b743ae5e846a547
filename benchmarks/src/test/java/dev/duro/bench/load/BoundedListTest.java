package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoundedListTest {
    @Test
    void missingValueIsTheEmptyList() {
        assertEquals(List.of(), BoundedList.decode(null));
        assertEquals(List.of(Bytes.utf8("x")), BoundedList.decode(BoundedList.append(null, Bytes.utf8("x"), 3)));
    }

    @Test
    void appendKeepsTheNewestEntries() {
        Bytes list = null;
        for (int i = 0; i < 5; i++) {
            list = BoundedList.append(list, Bytes.utf8("post " + i), 3);
        }
        assertEquals(
                List.of(Bytes.utf8("post 2"), Bytes.utf8("post 3"), Bytes.utf8("post 4")), BoundedList.decode(list));
    }

    @Test
    void appendAbsentNeverDuplicates() {
        Bytes list = BoundedList.appendAbsent(null, Bytes.utf8("bob"), 3);
        list = BoundedList.appendAbsent(list, Bytes.utf8("bob"), 3);
        assertEquals(List.of(Bytes.utf8("bob")), BoundedList.decode(list));
    }

    @Test
    void oversizedEntriesAndTruncatedValuesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> BoundedList.append(null, Bytes.wrap(new byte[256]), 3));
        assertThrows(IllegalStateException.class, () -> BoundedList.decode(Bytes.wrap(new byte[] {5, 1})));
    }
}
