package dev.duro.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SpreadTest {
    @Test
    void oddCountTakesTheMiddleValue() {
        Spread s = Spread.of(30, 10, 20);
        assertEquals(new Spread(20, 10, 30), s);
        assertEquals(2, Spread.medianIndex(30, 10, 20));
    }

    @Test
    void evenCountAveragesTheTwoMiddleValuesAndTheMedianRunIsTheLowerOne() {
        Spread s = Spread.of(4, 1, 3, 2);
        assertEquals(2.5, s.median());
        assertEquals(1, s.min());
        assertEquals(4, s.max());
        assertEquals(3, Spread.medianIndex(4, 1, 3, 2));
    }

    @Test
    void oneValueIsItsOwnSpread() {
        assertEquals(new Spread(7, 7, 7), Spread.of(7));
        assertEquals(0, Spread.medianIndex(7));
    }

    @Test
    void normalisingDividesEveryFigure() {
        assertEquals(new Spread(2, 1, 3), new Spread(200, 100, 300).dividedBy(100));
        assertThrows(IllegalArgumentException.class, () -> Spread.of());
        assertThrows(IllegalArgumentException.class, () -> new Spread(1, 2, 3).dividedBy(0));
    }
}
