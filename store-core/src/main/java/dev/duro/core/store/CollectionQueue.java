package dev.duro.core.store;

import dev.duro.core.Bytes;

/**
 * The store's queue of {@code (key, chain, version)} entries awaiting collection, in install order: a growable
 * ring of parallel arrays, so queueing a version allocates nothing (one entry is queued for most installs).
 */
final class CollectionQueue {
    private Bytes[] keys = new Bytes[16];
    private VersionChain[] chains = new VersionChain[16];
    private long[] versions = new long[16];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void addLast(Bytes key, VersionChain chain, long version) {
        if (size == keys.length) {
            grow();
        }
        int tail = (head + size) & (keys.length - 1);
        keys[tail] = key;
        chains[tail] = chain;
        versions[tail] = version;
        size++;
    }

    /** The version of the oldest entry; the queue must not be empty. */
    long firstVersion() {
        return versions[head];
    }

    Bytes firstKey() {
        return keys[head];
    }

    VersionChain firstChain() {
        return chains[head];
    }

    void removeFirst() {
        keys[head] = null;
        chains[head] = null;
        head = (head + 1) & (keys.length - 1);
        size--;
    }

    Bytes keyAt(int index) {
        return keys[(head + index) & (keys.length - 1)];
    }

    long versionAt(int index) {
        return versions[(head + index) & (keys.length - 1)];
    }

    private void grow() {
        int capacity = keys.length << 1;
        Bytes[] newKeys = new Bytes[capacity];
        VersionChain[] newChains = new VersionChain[capacity];
        long[] newVersions = new long[capacity];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & (keys.length - 1);
            newKeys[i] = keys[from];
            newChains[i] = chains[from];
            newVersions[i] = versions[from];
        }
        keys = newKeys;
        chains = newChains;
        versions = newVersions;
        head = 0;
    }
}
