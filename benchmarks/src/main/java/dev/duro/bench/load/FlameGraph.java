package dev.duro.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A flame graph of collapsed stacks, as a self-contained SVG: one box per frame, as wide as the samples that passed
 * through it, its callers below it, siblings in name order; hovering a box shows its frame, samples and share. The
 * input is the collapsed form flame-graph tools share ({@code root;caller;callee 17}, one stack a line), so the same
 * {@code .folded} file also opens in any of them.
 */
final class FlameGraph {
    private static final int WIDTH = 1200;
    private static final int FRAME_HEIGHT = 16;
    private static final int TITLE_HEIGHT = 24;
    private static final double TEXT_CHAR_WIDTH = 7;
    private static final double BOX_WIDTH_MIN = 0.3;

    /** A frame and the samples of the stacks through it, with its callees by name. */
    private static final class Node {
        final String name;
        long samples;
        final Map<String, Node> callees = new TreeMap<>();

        Node(String name) {
            this.name = name;
        }

        Node callee(String frame) {
            return callees.computeIfAbsent(frame, Node::new);
        }

        int depth() {
            int deepest = 0;
            for (Node callee : callees.values()) {
                deepest = Math.max(deepest, callee.depth());
            }
            return deepest + 1;
        }
    }

    private FlameGraph() {}

    /** The SVG of {@code folded} (stack to samples, frames from the root, separated by {@code ;}). */
    static String svg(String title, Map<String, Long> folded) {
        Node root = new Node("all");
        for (Map.Entry<String, Long> stack : folded.entrySet()) {
            long samples = stack.getValue();
            root.samples += samples;
            Node node = root;
            for (String frame : stack.getKey().split(";", -1)) {
                node = node.callee(frame);
                node.samples += samples;
            }
        }
        int depth = root.depth();
        int height = TITLE_HEIGHT + depth * FRAME_HEIGHT + 4;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\""
                        + " font-size=\"11\">%n",
                WIDTH,
                height));
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"16\" font-size=\"14\">%s (%d samples)</text>%n",
                4,
                escape(title),
                root.samples));
        List<String> boxes = new ArrayList<>();
        if (root.samples > 0) {
            box(root, 0, WIDTH, height - FRAME_HEIGHT - 2, root.samples, boxes);
        }
        boxes.forEach(svg::append);
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** Draws {@code node} at {@code x} over {@code width} pixels, bottom row {@code y}, then its callees above it. */
    private static void box(Node node, double x, double width, int y, long total, List<String> boxes) {
        if (width < BOX_WIDTH_MIN) {
            return;
        }
        String tip = String.format(
                Locale.ROOT, "%s (%d samples, %.2f%%)", node.name, node.samples, 100.0 * node.samples / total);
        int chars = (int) ((width - 4) / TEXT_CHAR_WIDTH);
        String label =
                chars < 3 ? "" : node.name.length() <= chars ? node.name : node.name.substring(0, chars - 2) + "..";
        boxes.add(String.format(
                Locale.ROOT,
                "<g><title>%s</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\""
                        + " stroke=\"white\" stroke-width=\"0.5\"/><text x=\"%.1f\" y=\"%d\">%s</text></g>%n",
                escape(tip),
                x,
                y,
                width,
                FRAME_HEIGHT - 1,
                color(node.name),
                x + 2,
                y + FRAME_HEIGHT - 4,
                escape(label)));
        double offset = x;
        for (Node callee : node.callees.values()) {
            double calleeWidth = width * callee.samples / node.samples;
            box(callee, offset, calleeWidth, y - FRAME_HEIGHT, total, boxes);
            offset += calleeWidth;
        }
    }

    /** A warm colour that depends on the frame's name only, so a frame has the same colour wherever it appears. */
    private static String color(String name) {
        int hash = name.hashCode();
        int red = 205 + Math.floorMod(hash, 50);
        int green = 80 + Math.floorMod(hash >>> 8, 150);
        int blue = Math.floorMod(hash >>> 16, 60);
        return String.format(Locale.ROOT, "rgb(%d,%d,%d)", red, green, blue);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
