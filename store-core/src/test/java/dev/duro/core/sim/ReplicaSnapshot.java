package dev.duro.core.sim;

import dev.duro.core.Bytes;

/** An engine's state-machine snapshot ({@code EngineStateCodec.write}) and the log position it was taken at. */
record ReplicaSnapshot(int position, Bytes state) {}
