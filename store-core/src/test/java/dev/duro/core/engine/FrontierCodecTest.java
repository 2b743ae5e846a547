package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.snapshot.Frontier;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrontierCodecTest {
    @Test
    void frontierRoundTripsWithItsDependencyVector() {
        Frontier frontier = new Frontier(3, 42, List.of(40L, 19L, 0L, 7L));
        ByteWriter out = new ByteWriter(64);

        CoreCodec.writeFrontier(out, frontier);
        ByteReader in = new ByteReader(out.toByteArray());

        assertEquals(frontier, CoreCodec.readFrontier(in));
    }
}
