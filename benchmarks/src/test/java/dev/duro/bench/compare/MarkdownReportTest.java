package dev.duro.bench.compare;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {
    private static final Environment ENVIRONMENT = new Environment(
            "2026-01-01T00:00:00Z",
            2,
            "Test CPU",
            "4.0 GiB",
            "Debian, Linux",
            "OpenJDK 17",
            "0123abcd",
            "clean",
            "./duro bench compare --quick");

    @Test
    void aReportFromFixedNumbersHoldsTheTablesAndTheTargets() {
        CompareOptions options = CompareOptions.parse(new String[] {"--out", "/tmp/x"});
        String md = MarkdownReport.render(ENVIRONMENT, options, "linearizable", Fixtures.matrix());

        assertContains(md, "| git commit | `0123abcd`, tree clean |");
        assertContains(md, "`./duro bench compare --quick`");
        assertContains(md, "2 cores (Test CPU)");
        assertContains(md, "| system | 0% global | 10% global | 50% global | 100% global |");
        assertContains(md, "| duro-2x3 | 2000 [1800-2400] | 1800 [1620-2160] | 1200 [1080-1440] | 800 [720-960] |");
        assertContains(md, "(/ duro-1x3 = 1000 tx/s, its median over all runs)");
        assertContains(md, "| duro-2x3 | 2.00 [1.80-2.40] | 1.80 [1.62-2.16] | 1.20 [1.08-1.44] | 0.80 [0.72-0.96] |");
        assertContains(md, "| etcd-3 | 0.40% | 0.40% | 0.40% | 0.40% |");
        assertContains(md, "| dur-1x6 | 0.500 | 0.500 | 0.500 | 0.500 |");
        assertContains(md, "## Server CPU per committed transaction (ms, median)\n\n| system |");
        assertContains(md, "| dur-1x6 | 0.400 | 0.400 | 0.400 | 0.400 |");
        assertContains(md, "## Client CPU per committed transaction (ms, median)\n\n| system |");
        assertContains(md, "| dur-1x6 | 0.100 | 0.100 | 0.100 | 0.100 |");
        assertContains(md, "| system | % global | local p50 / p99 | global p50 / p99 |");
        assertContains(md, "| duro-2x3 | 10 | - | 5.00 / 9.90 |");
        assertContains(md, "| duro-2x3 vs dur-1x6 at 0% global >= 1.8x | **met** | 2.00x |");
        assertContains(md, "| break-even of duro-2x3 with dur-1x6 at >= 50% global | **met** |");
        assertContains(md, "| duro-2x3 vs etcd-3 at 0% global >= 10x | **met** | 20.00x |");
        assertContains(md, "![normalised throughput vs % global](throughput-vs-global.png)");
        assertContains(md, "![latency CDF](latency-cdf.png)");
        assertContains(md, "## Latency vs throughput (client sweep at 0% global, one run per point)");
        assertContains(md, "| duro-1x3 | 8 | 900 | 2.00 | 3.96 | 0.400 | 0.100 |\n| duro-1x3 | 32 | 1800 |");
        assertContains(md, "| etcd-3 | 8 | 100 | 20.02 | 39.62 | 0.400 | 0.100 |\n| etcd-3 | 32 | 120 |");
        assertContains(md, "![latency vs throughput](latency-vs-throughput.png)");
    }

    @Test
    void aReportWithoutASweepHasNeitherItsTableNorItsPlot() {
        CompareOptions options = CompareOptions.parse("--out", "/tmp/x", "--no-client-sweep");
        CompareResults matrix = Fixtures.matrix();
        CompareResults noSweep =
                new CompareResults(matrix.systems(), matrix.globals(), matrix.points(), List.of(), matrix.failures());
        String md = MarkdownReport.render(ENVIRONMENT, options, "linearizable", noSweep);

        assertTrue(md.contains("## Throughput"), md);
        assertTrue(!md.contains("client sweep at"), md);
        assertTrue(!md.contains(ComparePlots.SWEEP_FILE), md);
    }

    private static void assertContains(String text, String wanted) {
        assertTrue(text.contains(wanted), () -> "missing: " + wanted + "\n--- in ---\n" + text);
    }
}
