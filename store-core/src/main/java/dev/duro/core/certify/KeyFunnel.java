package dev.duro.core.certify;

import com.google.common.hash.Funnel;
import com.google.common.hash.PrimitiveSink;
import dev.duro.core.Bytes;

/** Feeds a key's bytes to Guava's hashing: the funnel of every readset bloom filter. */
enum KeyFunnel implements Funnel<Bytes> {
    INSTANCE;

    @Override
    public void funnel(Bytes key, PrimitiveSink into) {
        into.putBytes(key.unsafeArray());
    }
}
