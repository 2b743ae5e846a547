package dev.duro.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.TxId;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.GlobalCommit;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrontierCodecTest {
    @Test
    void frontierRoundTripsWithWhereItsListStarts() {
        Frontier frontier =
                new Frontier(3, 17, 42, List.of(new GlobalCommit(new TxId(9, 2), List.of(1, 3), List.of(40L, 19L))));
        ByteWriter out = new ByteWriter(64);

        CoreCodec.writeFrontier(out, frontier);
        ByteReader in = new ByteReader(out.toByteArray());

        assertEquals(frontier, CoreCodec.readFrontier(in));
    }
}
