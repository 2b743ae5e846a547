package dev.duro.bench.compare;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.DoubleFunction;
import javax.imageio.ImageIO;

/**
 * A small line chart drawn with java.awt (headless): lines with markers and min–max error bars, linear or log10
 * x axis, grid, axis labels, title and a legend beside the plot. Enough for the comparison's two figures without
 * a plotting library.
 */
public final class Chart {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    /** Palette and markers that stay apart in print and for the colour-blind (Okabe–Ito). */
    static final Color[] COLORS = {
        new Color(0, 114, 178),
        new Color(213, 94, 0),
        new Color(0, 158, 115),
        new Color(204, 121, 167),
        new Color(86, 180, 233),
        new Color(230, 159, 0),
        new Color(0, 0, 0)
    };

    public enum Marker {
        CIRCLE,
        SQUARE,
        TRIANGLE,
        DIAMOND,
        NONE
    }

    /** A point; {@code low} and {@code high} bound its error bar (NaN for none). */
    public record Point(double x, double y, double low, double high) {
        public static Point of(double x, double y) {
            return new Point(x, y, Double.NaN, Double.NaN);
        }
    }

    /** One line; {@code step} draws it as a staircase (a CDF). */
    public record Series(String name, Color color, Marker marker, boolean step, List<Point> points) {}

    /** An axis: range, whether log10, tick positions and how a tick is labelled. */
    public record Axis(
            String label, double min, double max, boolean log, List<Double> ticks, DoubleFunction<String> format) {}

    private static final int LEFT = 90;
    private static final int TOP = 62;
    private static final int BOTTOM = 64;
    private static final int LEGEND_WIDTH = 230;

    private final String title;
    private final String subtitle;
    private final Axis x;
    private final Axis y;
    private final List<Series> series;
    private final double referenceY;

    /** {@code referenceY} draws a dashed horizontal line there (NaN for none). */
    public Chart(String title, String subtitle, Axis x, Axis y, List<Series> series, double referenceY) {
        this.title = title;
        this.subtitle = subtitle;
        this.x = x;
        this.y = y;
        this.series = List.copyOf(series);
        this.referenceY = referenceY;
    }

    public BufferedImage render(int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            Frame frame = new Frame(LEFT, TOP, width - LEFT - LEGEND_WIDTH, height - TOP - BOTTOM);
            drawAxes(g, frame, width);
            drawReference(g, frame);
            for (int i = 0; i < series.size(); i++) {
                drawSeries(g, frame, series.get(i), dodge(i));
            }
            drawLegend(g, frame);
        } finally {
            g.dispose();
        }
        return image;
    }

    public void writePng(Path file, int width, int height) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (!ImageIO.write(render(width, height), "png", file.toFile())) {
            throw new IOException("no PNG writer in this JVM");
        }
    }

    /** Horizontal offset in pixels so that error bars of series at the same x do not hide each other. */
    private double dodge(int index) {
        return series.size() < 2 || series.get(index).step() ? 0 : (index - (series.size() - 1) / 2.0) * 7;
    }

    private record Frame(int left, int top, int width, int height) {
        int right() {
            return left + width;
        }

        int bottom() {
            return top + height;
        }
    }

    private double px(Frame f, double value) {
        return f.left() + f.width() * fraction(x, value);
    }

    private double py(Frame f, double value) {
        return f.bottom() - f.height() * fraction(y, value);
    }

    private static double fraction(Axis axis, double value) {
        if (axis.log()) {
            double v = Math.log10(Math.max(value, axis.min()));
            return (v - Math.log10(axis.min())) / (Math.log10(axis.max()) - Math.log10(axis.min()));
        }
        return (value - axis.min()) / (axis.max() - axis.min());
    }

    private void drawAxes(Graphics2D g, Frame f, int width) {
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        FontMetrics titleMetrics = g.getFontMetrics();
        g.setColor(Color.BLACK);
        g.drawString(title, (width - titleMetrics.stringWidth(title)) / 2, 26);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics m = g.getFontMetrics();
        g.setColor(new Color(80, 80, 80));
        g.drawString(subtitle, (width - m.stringWidth(subtitle)) / 2, 46);
        for (double tick : x.ticks()) {
            int at = (int) Math.round(px(f, tick));
            g.setColor(new Color(225, 225, 225));
            g.drawLine(at, f.top(), at, f.bottom());
            g.setColor(Color.BLACK);
            g.drawLine(at, f.bottom(), at, f.bottom() + 5);
            String label = x.format().apply(tick);
            g.drawString(label, at - m.stringWidth(label) / 2, f.bottom() + 20);
        }
        for (double tick : y.ticks()) {
            int at = (int) Math.round(py(f, tick));
            g.setColor(new Color(225, 225, 225));
            g.drawLine(f.left(), at, f.right(), at);
            g.setColor(Color.BLACK);
            g.drawLine(f.left() - 5, at, f.left(), at);
            String label = y.format().apply(tick);
            g.drawString(label, f.left() - 9 - m.stringWidth(label), at + m.getAscent() / 2 - 1);
        }
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1.2f));
        g.drawRect(f.left(), f.top(), f.width(), f.height());
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        m = g.getFontMetrics();
        g.drawString(x.label(), f.left() + (f.width() - m.stringWidth(x.label())) / 2, f.bottom() + 46);
        AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2);
        g.drawString(y.label(), -(f.top() + (f.height() + m.stringWidth(y.label())) / 2), 24);
        g.setTransform(saved);
    }

    private void drawReference(Graphics2D g, Frame f) {
        if (Double.isNaN(referenceY)) {
            return;
        }
        int at = (int) Math.round(py(f, referenceY));
        g.setColor(new Color(120, 120, 120));
        g.setStroke(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 5f}, 0f));
        g.drawLine(f.left(), at, f.right(), at);
    }

    private void drawSeries(Graphics2D g, Frame f, Series s, double offset) {
        List<Point> points = s.points().stream()
                .sorted((a, b) -> Double.compare(a.x(), b.x()))
                .toList();
        if (points.isEmpty()) {
            return;
        }
        g.setColor(s.color());
        g.setStroke(new BasicStroke(2.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        Path2D.Double line = new Path2D.Double();
        line.moveTo(px(f, points.get(0).x()) + offset, py(f, points.get(0).y()));
        for (int i = 1; i < points.size(); i++) {
            double xi = px(f, points.get(i).x()) + offset;
            if (s.step()) {
                line.lineTo(xi, py(f, points.get(i - 1).y()));
            }
            line.lineTo(xi, py(f, points.get(i).y()));
        }
        g.draw(line);
        g.setStroke(new BasicStroke(1.6f));
        for (Point p : points) {
            double cx = px(f, p.x()) + offset;
            if (!Double.isNaN(p.low()) && !Double.isNaN(p.high())) {
                g.setColor(s.color());
                g.setStroke(new BasicStroke(1.6f));
                double top = py(f, p.high());
                double bottom = py(f, p.low());
                g.draw(new java.awt.geom.Line2D.Double(cx, top, cx, bottom));
                g.draw(new java.awt.geom.Line2D.Double(cx - 5, top, cx + 5, top));
                g.draw(new java.awt.geom.Line2D.Double(cx - 5, bottom, cx + 5, bottom));
            }
            drawMarker(g, s.marker(), cx, py(f, p.y()), s.color());
        }
    }

    private static void drawMarker(Graphics2D g, Marker marker, double cx, double cy, Color color) {
        double r = 5.5;
        Path2D.Double shape = new Path2D.Double();
        switch (marker) {
            case NONE -> {
                return;
            }
            case CIRCLE -> shape.append(new java.awt.geom.Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r), false);
            case SQUARE -> shape.append(
                    new java.awt.geom.Rectangle2D.Double(cx - r * 0.9, cy - r * 0.9, 1.8 * r, 1.8 * r), false);
            case TRIANGLE -> {
                shape.moveTo(cx, cy - r * 1.2);
                shape.lineTo(cx + r * 1.1, cy + r * 0.8);
                shape.lineTo(cx - r * 1.1, cy + r * 0.8);
                shape.closePath();
            }
            case DIAMOND -> {
                shape.moveTo(cx, cy - r * 1.25);
                shape.lineTo(cx + r * 1.1, cy);
                shape.lineTo(cx, cy + r * 1.25);
                shape.lineTo(cx - r * 1.1, cy);
                shape.closePath();
            }
        }
        g.setColor(color);
        g.fill(shape);
        g.setColor(Color.WHITE);
        g.setStroke(new BasicStroke(1f));
        g.draw(shape);
    }

    private void drawLegend(Graphics2D g, Frame f) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics m = g.getFontMetrics();
        int left = f.right() + 16;
        int rowHeight = 24;
        int top = f.top();
        g.setColor(new Color(250, 250, 250));
        g.fillRect(left, top, LEGEND_WIDTH - 26, rowHeight * series.size() + 12);
        g.setColor(new Color(180, 180, 180));
        g.setStroke(new BasicStroke(1f));
        g.drawRect(left, top, LEGEND_WIDTH - 26, rowHeight * series.size() + 12);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            int cy = top + 18 + i * rowHeight;
            g.setColor(s.color());
            g.setStroke(new BasicStroke(2.2f));
            g.drawLine(left + 8, cy, left + 38, cy);
            drawMarker(g, s.marker(), left + 23, cy, s.color());
            g.setColor(Color.BLACK);
            g.drawString(s.name(), left + 46, cy + m.getAscent() / 2 - 1);
        }
    }
}
