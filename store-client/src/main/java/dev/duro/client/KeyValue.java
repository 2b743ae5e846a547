package dev.duro.client;

import dev.duro.core.Bytes;
import java.util.Objects;

/** One key of a scan's answer and its value. */
public record KeyValue(Bytes key, Bytes value) {
    public KeyValue {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    /** The key as UTF-8 text. */
    public String keyText() {
        return key.toUtf8();
    }

    /** The value as UTF-8 text. */
    public String valueText() {
        return value.toUtf8();
    }
}
