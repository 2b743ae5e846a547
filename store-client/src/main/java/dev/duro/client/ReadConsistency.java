package dev.duro.client;

/** What a read-only transaction promises about time. Both read one consistent cut and never abort. */
public enum ReadConsistency {
    /**
     * Serializable (the default): the greatest consistent cut the answering node knows, which may trail the
     * newest commits by a few milliseconds; it always includes this client's own commits.
     */
    SNAPSHOT,
    /**
     * Linearizable (strict serializable): the cut includes every transaction that committed before the
     * read-only transaction began: the node asked confirms, with a Raft ReadIndex per partition, the newest
     * transaction delivered there, and waits until its cut covers them. Costs a round of leader confirmations.
     */
    LINEARIZABLE
}
