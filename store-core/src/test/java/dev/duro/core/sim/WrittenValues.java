package dev.duro.core.sim;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import javax.annotation.Nullable;

/**
 * Every value the simulation writes names its writer, so any read can be attributed to exactly one write.
 *
 * <p>Writers with an even sequence number write it compactly, a zero byte and then the client id and the sequence as
 * varints: a few bytes, which the store holds inside its version chains. The others write it as text, longer than any
 * value held inline, so that chains hold both kinds side by side (docs/performance.md, "Small values inside their
 * chains").
 */
final class WrittenValues {
    private static final String PREFIX = "written-by ";
    /** The first byte of a compact value; no text value starts with it. */
    private static final int COMPACT = 0;

    private WrittenValues() {}

    static Bytes by(TxId writer) {
        if (writer.sequence() % 2 == 0) {
            return Bytes.wrap(new ByteWriter(12)
                    .writeByte(COMPACT)
                    .writeVarLong(writer.clientId())
                    .writeVarLong(writer.sequence())
                    .toByteArray());
        }
        return Bytes.utf8(PREFIX + writer.clientId() + " " + writer.sequence());
    }

    /** The writer named by a value read, or null for an absent or deleted key. */
    @Nullable
    static TxId writerOf(@Nullable Bytes value) {
        if (value == null) {
            return null;
        }
        if (value.size() > 0 && value.byteAt(0) == COMPACT) {
            ByteReader in = new ByteReader(value.unsafeArray());
            in.readByte();
            TxId writer = new TxId(in.readVarLong(), in.readVarLong());
            if (in.hasRemaining()) {
                throw new IllegalStateException("a value the simulation did not write: " + value);
            }
            return writer;
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
