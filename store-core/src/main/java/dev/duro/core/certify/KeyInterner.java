package dev.duro.core.certify;

import dev.duro.core.Bytes;

/**
 * Gives, for a key, an equal key object that lives on anyway, so that what a partition retains about a key (its
 * store chain, its certification index entry, the write and read keys of the transactions in the window) refers
 * to one object rather than to a copy decoded from each transaction's log entry. Only object identity changes:
 * every lookup still compares keys by content, so the answers are the same whichever object is kept
 * (docs/performance.md, "One object per key").
 */
@FunctionalInterface
public interface KeyInterner {
    /** Keeps the key as given. */
    KeyInterner AS_GIVEN = key -> key;

    /** A key equal to {@code key}: one held already, or {@code key} itself. */
    Bytes intern(Bytes key);
}
