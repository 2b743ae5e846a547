package dev.duro.bench.compare;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The comparison's figures, drawn with XChart and written as PNG: normalised throughput against % global
 * (median per point, min–max bars, a dashed line at the baseline's 1.0), latency CDFs at the lowest % global
 * (log-scale latency), and, from the client sweep, latency against throughput. Each has a title, a subtitle that
 * says what the figures are relative to, axis titles and a legend beside the plot.
 */
public final class ComparePlots {
    static {
        // Rendering to an image needs no display; without this AWT may look for one (and fail on a server).
        System.setProperty("java.awt.headless", "true");
    }

    public static final String THROUGHPUT_FILE = "throughput-vs-global.png";
    public static final String LATENCY_FILE = "latency-cdf.png";
    public static final String SWEEP_FILE = "latency-vs-throughput.png";
    static final int WIDTH = 1000;
    static final int HEIGHT = 600;

    /** Palette that stays apart in print and for the colour-blind (Okabe–Ito). */
    private static final Color[] COLORS = {
        new Color(0, 114, 178),
        new Color(213, 94, 0),
        new Color(0, 158, 115),
        new Color(204, 121, 167),
        new Color(86, 180, 233),
        new Color(230, 159, 0),
        new Color(0, 0, 0)
    };

    private static final Marker[] MARKERS = {
        SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.TRIANGLE_UP, SeriesMarkers.DIAMOND
    };

    /** Horizontal shift between systems' points at one % global, so that their bars do not hide each other. */
    private static final double DODGE = 1.0;

    /** Room under the title for the subtitle, which XChart does not draw itself. */
    private static final int TITLE_PADDING = 22;

    /** Height of the subtitle's centre above the bottom edge (XChart's screen-space annotations count from it). */
    private static final int SUBTITLE_FROM_BOTTOM = HEIGHT - 63;

    private static final BasicStroke LINE = new BasicStroke(2.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    private static final BasicStroke BAR = new BasicStroke(1.6f);
    private static final BasicStroke DASHED =
            new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 5f}, 0f);

    private ComparePlots() {}

    /** A point of a line: x and y in the chart's units. */
    record Point(double x, double y) {}

    public static void write(CompareResults results, Path directory) throws IOException {
        Optional<XYChart> throughput = throughput(results);
        if (throughput.isPresent()) {
            writePng(throughput.get(), directory.resolve(THROUGHPUT_FILE));
        }
        Optional<XYChart> latency = latencyCdf(results);
        if (latency.isPresent()) {
            writePng(latency.get(), directory.resolve(LATENCY_FILE));
        }
        Optional<XYChart> sweep = latencyVsThroughput(results);
        if (sweep.isPresent()) {
            writePng(sweep.get(), directory.resolve(SWEEP_FILE));
        }
    }

    /**
     * The client sweep: per system, median latency (solid, with markers) and p99 (dashed) against the throughput
     * reached, one point per client count, fewest clients first; latency on a log scale.
     */
    static Optional<XYChart> latencyVsThroughput(CompareResults results) {
        if (results.sweep().isEmpty()) {
            return Optional.empty();
        }
        List<Integer> clients = results.sweep().stream()
                .map(CompareResults.SweepPoint::clients)
                .distinct()
                .sorted()
                .toList();
        XYChart chart = chart(
                "Latency vs throughput at " + results.sweep().get(0).globalPercent() + "% global",
                "closed-loop clients " + clients + ", one run each; solid: p50, dashed: p99",
                "committed transactions per second",
                "latency (ms, log scale)");
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        double fastest = 0;
        for (int i = 0; i < results.systems().size(); i++) {
            SystemSpec system = results.systems().get(i);
            List<Point> p50 = new ArrayList<>();
            List<Point> p99 = new ArrayList<>();
            for (CompareResults.SweepPoint point : results.sweepOf(system.name())) {
                Histogram all = point.run().allLatencies();
                if (all.getTotalCount() == 0) {
                    continue;
                }
                double throughput = point.run().committedPerSecond();
                double median = all.getValueAtPercentile(50) / 1e3;
                double tail = all.getValueAtPercentile(99) / 1e3;
                p50.add(new Point(throughput, median));
                p99.add(new Point(throughput, tail));
                lowest = Math.min(lowest, Math.max(median, 0.001));
                highest = Math.max(highest, tail);
                fastest = Math.max(fastest, throughput);
            }
            if (p50.isEmpty()) {
                continue;
            }
            XYSeries median = line(chart, legendName(system), p50);
            median.setLineColor(color(i)).setLineStyle(LINE);
            median.setMarker(MARKERS[i % MARKERS.length]).setMarkerColor(color(i));
            XYSeries tail = line(chart, system.name() + " p99", p99);
            tail.setLineColor(color(i)).setLineStyle(DASHED);
            tail.setMarker(SeriesMarkers.NONE);
            tail.setShowInLegend(false);
        }
        if (fastest == 0) {
            return Optional.empty();
        }
        Point decades = decadesAround(lowest, highest);
        double step = niceStep(fastest * 1.1 / 6);
        XYStyler styler = chart.getStyler();
        styler.setXAxisMin(0.0).setXAxisMax(Math.ceil(fastest * 1.1 / step) * step);
        styler.setXAxisDecimalPattern("#,##0");
        styler.setYAxisLogarithmic(true);
        styler.setYAxisMin(decades.x()).setYAxisMax(decades.y());
        styler.setYAxisDecimalPattern("0.##");
        return Optional.of(chart);
    }

    static void writePng(XYChart chart, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** Median throughput over the baseline's, with min–max bars, one line per system. */
    static Optional<XYChart> throughput(CompareResults results) {
        Optional<CompareResults.Baseline> found = results.baseline();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        CompareResults.Baseline baseline = found.get();
        XYChart chart = chart(
                "Normalised throughput vs % global transactions",
                String.format(
                        Locale.ROOT,
                        "1.0 = %s (classical DUR, 3 replicas), %.0f tx/s median; bars: min-max of %d run(s) per point",
                        baseline.system(),
                        baseline.committedPerSecond(),
                        results.points().get(0).runs().size()),
                "global transactions (%)",
                "throughput / " + baseline.system() + " (median, bars min-max)");
        double highest = 1;
        int systemCount = results.systems().size();
        for (int i = 0; i < systemCount; i++) {
            SystemSpec system = results.systems().get(i);
            double dodge = systemCount < 2 ? 0 : (i - (systemCount - 1) / 2.0) * DODGE;
            List<Point> medians = new ArrayList<>();
            for (int global : results.globals()) {
                Optional<PointResult> point = results.point(system.name(), global);
                if (point.isEmpty()) {
                    continue;
                }
                Spread s = point.get().throughput().dividedBy(baseline.committedPerSecond());
                double x = global + dodge;
                medians.add(new Point(x, s.median()));
                highest = Math.max(highest, s.max());
                XYSeries bar = line(
                        chart,
                        system.name() + " " + global + "% min-max",
                        List.of(new Point(x, s.min()), new Point(x, s.max())));
                bar.setLineColor(color(i)).setLineStyle(BAR);
                bar.setShowInLegend(false);
            }
            if (!medians.isEmpty()) {
                XYSeries series = line(chart, legendName(system), medians);
                series.setLineColor(color(i)).setLineStyle(LINE);
                series.setMarker(MARKERS[i % MARKERS.length]).setMarkerColor(color(i));
            }
        }
        XYSeries reference = line(chart, "1.0", List.of(new Point(-4, 1), new Point(104, 1)));
        reference.setLineColor(new Color(120, 120, 120)).setLineStyle(DASHED);
        reference.setShowInLegend(false);

        double step = niceStep(highest * 1.1 / 6);
        XYStyler styler = chart.getStyler();
        styler.setXAxisMin(-4.0).setXAxisMax(104.0);
        styler.setYAxisMin(0.0).setYAxisMax(Math.ceil(highest * 1.1 / step) * step);
        styler.setxAxisTickLabelsFormattingFunction(v -> String.format(Locale.ROOT, "%.0f%%", v));
        styler.setYAxisDecimalPattern(step < 0.1 ? "0.00" : "0.0");
        return Optional.of(chart);
    }

    /** CDF of every committed transaction's latency in each system's median run at the lowest % global. */
    static Optional<XYChart> latencyCdf(CompareResults results) {
        int global =
                results.globals().stream().mapToInt(Integer::intValue).min().orElse(0);
        XYChart chart = chart(
                "Latency CDF at " + global + "% global",
                "every committed transaction of each system's median-throughput run",
                "latency (ms, log scale)",
                "fraction of transactions <= latency");
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        boolean any = false;
        for (int i = 0; i < results.systems().size(); i++) {
            SystemSpec system = results.systems().get(i);
            Optional<PointResult> point = results.point(system.name(), global);
            if (point.isEmpty()) {
                continue;
            }
            Histogram all = point.get().medianRun().allLatencies();
            if (all.getTotalCount() == 0) {
                continue;
            }
            List<Point> cdf = cdf(all);
            lowest = Math.min(lowest, cdf.get(0).x());
            highest = Math.max(highest, cdf.get(cdf.size() - 1).x());
            XYSeries series = line(chart, legendName(system), steps(cdf));
            series.setLineColor(color(i)).setLineStyle(LINE);
            series.setMarker(SeriesMarkers.NONE);
            any = true;
        }
        if (!any) {
            return Optional.empty();
        }
        Point decades = decadesAround(lowest, highest);
        double min = decades.x();
        double max = decades.y();
        XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        // Within one decade, ticks at 2 to 9 times its start too; over more their labels would run into each other.
        styler.setXAxisLogarithmicDecadeOnly(Math.log10(max / min) > 1.0001);
        styler.setXAxisMin(min).setXAxisMax(max);
        styler.setYAxisMin(0.0).setYAxisMax(100.0);
        // Decimal patterns, not formatting functions: with a function XChart places ticks linearly, on a log axis too.
        styler.setXAxisDecimalPattern("0.##");
        styler.setYAxisDecimalPattern("0'%'");
        return Optional.of(chart);
    }

    /** A white chart of the figures' size, with the legend beside the plot and the subtitle under the title. */
    private static XYChart chart(String title, String subtitle, String xTitle, String yTitle) {
        SubtitledChart chart = new SubtitledChart(subtitle);
        chart.setTitle(title);
        chart.setXAxisTitle(xTitle);
        chart.setYAxisTitle(yTitle);
        XYStyler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotBorderColor(Color.BLACK);
        styler.setPlotGridLinesColor(new Color(225, 225, 225));
        styler.setChartTitleBoxVisible(false);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        styler.setChartTitlePadding(TITLE_PADDING);
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendBackgroundColor(new Color(250, 250, 250));
        styler.setLegendBorderColor(new Color(180, 180, 180));
        styler.setLegendSeriesLineLength(30);
        styler.setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setAnnotationTextFontColor(new Color(80, 80, 80));
        styler.setAntiAlias(true);
        return chart;
    }

    /**
     * An XY chart with a subtitle under its title, centred over the plot as XChart centres the title. The plot's
     * place is known only once XChart has laid the chart out, which it does while painting: so the first paint
     * places the subtitle, and a second one draws it there.
     */
    private static final class SubtitledChart extends XYChart {
        private final AnnotationText subtitle;
        private double subtitleX = WIDTH / 2.0;

        SubtitledChart(String text) {
            super(WIDTH, HEIGHT);
            subtitle = new AnnotationText(text, subtitleX, SUBTITLE_FROM_BOTTOM, true);
            addAnnotation(subtitle);
        }

        @Override
        public void paint(Graphics2D graphics, int width, int height) {
            super.paint(graphics, width, height);
            double plotCentre = plot.getBounds().getCenterX();
            if (plotCentre != subtitleX) {
                subtitleX = plotCentre;
                subtitle.setX(plotCentre);
                super.paint(graphics, width, height);
            }
        }
    }

    private static XYSeries line(XYChart chart, String name, List<Point> points) {
        double[] xs = points.stream().mapToDouble(Point::x).toArray();
        double[] ys = points.stream().mapToDouble(Point::y).toArray();
        XYSeries series = chart.addSeries(name, xs, ys);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }

    /** Points (latency in ms, percentage of transactions at or below it) of a histogram in microseconds. */
    static List<Point> cdf(Histogram histogram) {
        List<Point> points = new ArrayList<>();
        double total = histogram.getTotalCount();
        long seen = 0;
        for (HistogramIterationValue value : histogram.recordedValues()) {
            seen += value.getCountAtValueIteratedTo();
            double millis = Math.max(histogram.highestEquivalentValue(value.getValueIteratedTo()), 1) / 1e3;
            points.add(new Point(millis, 100 * seen / total));
        }
        return points;
    }

    /** A staircase through {@code points}: the fraction holds until the next latency, then rises there. */
    static List<Point> steps(List<Point> points) {
        List<Point> staircase = new ArrayList<>(2 * points.size());
        for (int i = 0; i < points.size(); i++) {
            if (i > 0) {
                staircase.add(new Point(points.get(i).x(), points.get(i - 1).y()));
            }
            staircase.add(points.get(i));
        }
        return staircase;
    }

    private static String legendName(SystemSpec system) {
        return switch (system.kind()) {
            case DURO -> "Duro " + system.partitions() + "x" + system.replicas() + " (S-DUR)";
            case DUR -> "DUR 1x" + system.partitions() * system.replicas() + " (" + system.name() + ")";
            case ETCD -> "etcd, " + system.replicas() + " members";
        };
    }

    private static Color color(int index) {
        return COLORS[index % COLORS.length];
    }

    /** The powers of ten just below {@code lowest} and just above {@code highest} (as x and y), at least a decade apart. */
    static Point decadesAround(double lowest, double highest) {
        double min = Math.pow(10, Math.floor(Math.log10(lowest)));
        double max = Math.pow(10, Math.ceil(Math.log10(highest)));
        return new Point(min, max > min ? max : min * 10);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code rough}. */
    static double niceStep(double rough) {
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double factor : new double[] {1, 2, 5, 10}) {
            if (factor * power >= rough) {
                return factor * power;
            }
        }
        return 10 * power;
    }
}
