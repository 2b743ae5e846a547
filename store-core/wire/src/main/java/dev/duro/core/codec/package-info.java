/**
 * The bytes under every encoding of the log, the wire and snapshots: {@link dev.duro.core.codec.ByteWriter},
 * {@link dev.duro.core.codec.ByteReader} and the two typed decoding errors. The encodings of the engine's own
 * types live with them ({@code engine.CoreCodec}); this package depends on nothing but {@code dev.duro.core}.
 *
 * <p>Decoding never trusts its input: every count and length is checked against what remains before anything
 * is allocated, so any byte string yields a value or a {@link dev.duro.core.codec.MalformedInputException}
 * naming the field, never a crash, a hang or a huge allocation (docs/wire-protocol.md).
 */
package dev.duro.core.codec;
