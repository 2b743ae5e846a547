package dev.duro.client;

/** The order a scan returns keys in, and so which end of the range a limit keeps. */
public enum ScanOrder {
    /** From the start of the range up: a limit keeps the smallest keys. */
    ASCENDING,
    /** From the end of the range down: a limit keeps the largest keys. */
    DESCENDING
}
