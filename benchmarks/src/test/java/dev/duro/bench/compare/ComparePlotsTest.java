package dev.duro.bench.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/** The comparison's figures: XChart line charts written as PNG files of the chosen size. */
class ComparePlotsTest {
    @TempDir
    Path directory;

    @Test
    void writesBothPlotsAsDecodablePngsOfTheChosenSize() throws IOException {
        ComparePlots.write(Fixtures.matrix(), directory);
        for (String name :
                new String[] {ComparePlots.THROUGHPUT_FILE, ComparePlots.LATENCY_FILE, ComparePlots.SWEEP_FILE}) {
            BufferedImage image = ImageIO.read(directory.resolve(name).toFile());
            assertNotEquals(null, image, name + " does not decode");
            assertEquals(ComparePlots.WIDTH, image.getWidth(), name);
            assertEquals(ComparePlots.HEIGHT, image.getHeight(), name);
            assertNotEquals(0, inkInTitleBand(image), name + " has no title");
        }
    }

    private static int inkInTitleBand(BufferedImage image) {
        int ink = 0;
        for (int y = 10; y < 40; y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                ink += (image.getRGB(x, y) & 0xFFFFFF) == 0xFFFFFF ? 0 : 1;
            }
        }
        return ink;
    }

    @Test
    void theLegendNamesEachSystemOnceAndLeavesOutTheBarsAndTheBaselineLine() {
        XYChart throughput = ComparePlots.throughput(Fixtures.matrix()).orElseThrow();
        assertEquals(
                List.of("DUR 1x3 (duro-1x3)", "Duro 2x3 (S-DUR)", "DUR 1x6 (dur-1x6)", "etcd, 3 members"),
                legend(throughput));
        XYChart latency = ComparePlots.latencyCdf(Fixtures.matrix()).orElseThrow();
        assertEquals(4, legend(latency).size());
        assertTrue(latency.getStyler().isXAxisLogarithmic());
    }

    @Test
    void theSweepPlotsP50AndP99AgainstThroughputByClientCountWithOnlyP50InTheLegend() {
        XYChart sweep = ComparePlots.latencyVsThroughput(Fixtures.matrix()).orElseThrow();
        assertEquals(List.of("DUR 1x3 (duro-1x3)", "etcd, 3 members"), legend(sweep));
        assertTrue(sweep.getStyler().isYAxisLogarithmic());
        XYSeries etcd = sweep.getSeriesMap().get("etcd, 3 members");
        assertArrayEquals(new double[] {100, 120}, etcd.getXData(), 1e-9, "fewest clients first");
        assertArrayEquals(new double[] {20, 50}, etcd.getYData(), 0.05);
        XYSeries tail = sweep.getSeriesMap().get("etcd-3 p99");
        assertTrue(tail.getYData()[0] > etcd.getYData()[0], "p99 above p50");

        CompareResults matrix = Fixtures.matrix();
        CompareResults noSweep =
                new CompareResults(matrix.systems(), matrix.globals(), matrix.points(), List.of(), matrix.failures());
        assertTrue(ComparePlots.latencyVsThroughput(noSweep).isEmpty(), "no sweep, no plot");
    }

    private static List<String> legend(XYChart chart) {
        return chart.getSeriesMap().values().stream()
                .filter(XYSeries::isShowInLegend)
                .map(XYSeries::getName)
                .toList();
    }

    @Test
    void aCdfRisesAsAStaircase() {
        List<ComparePlots.Point> steps =
                ComparePlots.steps(List.of(new ComparePlots.Point(1, 0.5), new ComparePlots.Point(2, 1)));
        assertEquals(
                List.of(new ComparePlots.Point(1, 0.5), new ComparePlots.Point(2, 0.5), new ComparePlots.Point(2, 1)),
                steps);
    }

    @Test
    void niceStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.5, ComparePlots.niceStep(0.41), 1e-12);
        assertEquals(2, ComparePlots.niceStep(1.3), 1e-12);
        assertEquals(10, ComparePlots.niceStep(6), 1e-12);
    }
}
