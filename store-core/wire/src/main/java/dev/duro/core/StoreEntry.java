package dev.duro.core;

/** One key of a scan at a snapshot: its value there and the version that wrote it. */
public record StoreEntry(Bytes key, Bytes value, long version) {}
