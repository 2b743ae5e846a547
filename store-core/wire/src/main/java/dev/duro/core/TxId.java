package dev.duro.core;

/**
 * A transaction's identity: the client that began it and that client's sequence number. Unique across the
 * cluster as long as client ids are; retrying a commit with the same id is safe (the first outcome is returned).
 */
public record TxId(long clientId, long sequence) implements Comparable<TxId> {
    @Override
    public int compareTo(TxId other) {
        int byClient = Long.compare(clientId, other.clientId);
        return byClient != 0 ? byClient : Long.compare(sequence, other.sequence);
    }

    @Override
    public String toString() {
        return Long.toHexString(clientId) + ":" + sequence;
    }
}
