package dev.duro.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparePlotsTest {
    @TempDir
    Path directory;

    @Test
    void writesBothPlotsAsDecodablePngsOfTheChosenSize() throws IOException {
        ComparePlots.write(Fixtures.matrix(), directory);
        for (String name : new String[] {ComparePlots.THROUGHPUT_FILE, ComparePlots.LATENCY_FILE}) {
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
    void niceStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.5, ComparePlots.niceStep(0.41), 1e-12);
        assertEquals(2, ComparePlots.niceStep(1.3), 1e-12);
        assertEquals(10, ComparePlots.niceStep(6), 1e-12);
    }
}
