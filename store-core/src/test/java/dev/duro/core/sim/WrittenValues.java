package dev.duro.core.sim;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import javax.annotation.Nullable;

/** Every value the simulation writes names its writer, so any read can be attributed to exactly one write. */
final class WrittenValues {
    private static final String PREFIX = "written-by ";

    private WrittenValues() {}

    static Bytes by(TxId writer) {
        return Bytes.utf8(PREFIX + writer.clientId() + " " + writer.sequence());
    }

    /** The writer named by a value read, or null for an absent or deleted key. */
    @Nullable
    static TxId writerOf(@Nullable Bytes value) {
        if (value == null) {
            return null;
        }
        String text = value.toUtf8();
        int space = text.indexOf(' ', PREFIX.length());
        if (!text.startsWith(PREFIX) || space < 0) {
            throw new IllegalStateException("a value the simulation did not write: " + value);
        }
        return new TxId(
                Long.parseLong(text.substring(PREFIX.length(), space)), Long.parseLong(text.substring(space + 1)));
    }
}
