package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.wire.AdminRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/** Range arithmetic the client's scans need. */
final class KeyRanges {
    /** The keys under the reserved prefix, which only the admin commands reach (docs/auth.md). */
    static final KeyRange RESERVED = KeyRange.prefix(AdminRequest.RESERVED_PREFIX);
    /** The first key above the reserved prefix (a prefix range always has an end). */
    private static final Bytes RESERVED_END = Objects.requireNonNull(RESERVED.to(), "the reserved range's end");

    private KeyRanges() {}

    /** The keys in both, or null when they share none. */
    static @Nullable KeyRange intersection(KeyRange a, KeyRange b) {
        Bytes from = a.from().compareTo(b.from()) >= 0 ? a.from() : b.from();
        Bytes to =
                a.to() == null ? b.to() : b.to() == null ? a.to() : (a.to().compareTo(b.to()) <= 0 ? a.to() : b.to());
        return to != null && from.compareTo(to) >= 0 ? null : new KeyRange(from, to);
    }

    /**
     * {@code range} without the reserved keys, as up to two ranges in key order: a scan never asks a server for
     * them (a server refuses a range that overlaps them).
     */
    static List<KeyRange> withoutReserved(KeyRange range) {
        if (!range.overlaps(RESERVED)) {
            return List.of(range);
        }
        List<KeyRange> parts = new ArrayList<>(2);
        if (range.from().compareTo(RESERVED.from()) < 0) {
            parts.add(new KeyRange(range.from(), RESERVED.from()));
        }
        Bytes to = range.to();
        if (to == null || to.compareTo(RESERVED_END) > 0) {
            parts.add(new KeyRange(RESERVED_END, to));
        }
        return parts;
    }

    /**
     * The part of {@code asked} a scan that returned {@code last} as its final entry has observed when it stopped
     * there: up to and including {@code last} from the start (ascending), or from {@code last} to the end
     * (descending).
     */
    static KeyRange observedUpTo(KeyRange asked, Bytes last, boolean descending) {
        return descending ? new KeyRange(last, asked.to()) : new KeyRange(asked.from(), KeyRange.successor(last));
    }

    /** What is left of {@code asked} after a page of a scan that ended at {@code last}. */
    static @Nullable KeyRange after(KeyRange asked, Bytes last, boolean descending) {
        if (descending) {
            return asked.from().compareTo(last) >= 0 ? null : new KeyRange(asked.from(), last);
        }
        Bytes next = KeyRange.successor(last);
        return asked.to() != null && next.compareTo(asked.to()) >= 0 ? null : new KeyRange(next, asked.to());
    }
}
