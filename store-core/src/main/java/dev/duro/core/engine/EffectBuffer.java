package dev.duro.core.engine;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The {@link Effect}s of the input the engine is handling, in the order they arise. The engine and its collaborators
 * ({@link GlobalTermination}) add to one buffer; the engine takes them when the input is done. No list is allocated
 * for an input without effects.
 */
final class EffectBuffer {
    private @Nullable List<Effect> effects;

    void emit(Effect effect) {
        if (effects == null) {
            effects = new ArrayList<>(4);
        }
        effects.add(effect);
    }

    /** The effects since the last call, in order; the buffer is empty afterwards. */
    List<Effect> take() {
        List<Effect> out = effects;
        effects = null;
        return out == null ? List.of() : out;
    }
}
