package dev.duro.consensus;

import dev.duro.core.engine.Effect;
import java.util.List;

/**
 * Carries out what a partition engine asks for: replies to waiting clients, votes to other partitions, abort
 * requests into other partitions' logs. Implemented by the server; called on the thread that drove the
 * engine, after the engine's lock is released, so it may block briefly but must never call back into the
 * same replica synchronously.
 */
@FunctionalInterface
public interface EffectHandler {
    void handle(int partition, List<Effect> effects);
}
