package dev.duro.server;

import dev.duro.consensus.RaftMetrics;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ratis's metrics of a node ({@link RaftMetrics}) in Prometheus's text format, to follow the node's own series on
 * {@code /metrics}. Every sample carries {@code node}, as Duro's series do.
 */
final class RaftMetricsText {
    private RaftMetricsText() {}

    static String render(List<RaftMetrics.Family> families, String nodeId) {
        StringBuilder out = new StringBuilder(families.size() * 256);
        for (RaftMetrics.Family family : families) {
            if (family.samples().isEmpty()) {
                continue;
            }
            out.append("# HELP ")
                    .append(family.name())
                    .append(' ')
                    .append(helpText(family.help()))
                    .append('\n');
            out.append("# TYPE ")
                    .append(family.name())
                    .append(' ')
                    .append(family.type().name().toLowerCase(Locale.ROOT))
                    .append('\n');
            for (RaftMetrics.Sample sample : family.samples()) {
                out.append(family.name()).append(sample.suffix()).append("{node=\"");
                labelValue(out, nodeId);
                out.append('"');
                for (Map.Entry<String, String> label : sample.labels().entrySet()) {
                    out.append(',').append(label.getKey()).append("=\"");
                    labelValue(out, label.getValue());
                    out.append('"');
                }
                out.append("} ").append(value(sample.value())).append('\n');
            }
        }
        return out.toString();
    }

    private static String helpText(String help) {
        return help.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static void labelValue(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }

    private static String value(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        return Double.toString(value);
    }
}
