package dev.duro.cli;

import dev.duro.client.DuroClient;
import dev.duro.client.KeyValue;
import dev.duro.client.ReadConsistency;
import dev.duro.client.ScanOrder;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code ./duro scan}: a range or a prefix read in one linearizable read-only transaction, one line per key. */
@Command(
        name = "scan",
        description = "Prints the keys of [FROM, TO) in order, one 'key value' line each, read at one consistent"
                + " cut that includes every commit acknowledged before (a linearizable read-only transaction); or"
                + " those starting with --prefix. TO may be \"\" for the end"
                + " of the key space. When the limit stops the scan, a note on standard error says so.")
final class ScanCommand extends ClientCommand {
    private final PrintStream out;
    private final PrintStream err;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FROM", description = "the first key, inclusive")
    String from;

    @Parameters(index = "1", arity = "0..1", paramLabel = "TO", description = "the end, exclusive (\"\": none)")
    String to;

    @Option(names = "--prefix", paramLabel = "P", description = "every key starting with P, instead of FROM TO")
    String prefix;

    @Option(names = "--desc", description = "from the end of the range down")
    boolean descending;

    int limit = 1_000;

    ScanCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "1000",
            description = "at most N keys (default: ${DEFAULT-VALUE})")
    void limit(int value) {
        limit = atLeastOne(value, "--limit");
    }

    /** The range asked for, refusing a command line that names none or two. */
    KeyRange range() {
        if (prefix != null) {
            if (from != null) {
                throw new ParameterException(spec.commandLine(), "give either FROM TO or --prefix, not both");
            }
            return KeyRange.prefix(Bytes.utf8(prefix));
        }
        if (from == null || to == null) {
            throw new ParameterException(spec.commandLine(), "Missing required parameters: FROM TO (or --prefix P)");
        }
        Bytes start = Bytes.utf8(from);
        Bytes end = to.isEmpty() ? null : Bytes.utf8(to);
        if (end != null && start.compareTo(end) >= 0) {
            throw new ParameterException(
                    spec.commandLine(), "TO '" + to + "' must sort after FROM '" + from + "' (or be \"\")");
        }
        return new KeyRange(start, end);
    }

    @Override
    void validate() {
        range();
    }

    @Override
    int run(DuroClient client) {
        KeyRange range = range();
        ScanOrder order = descending ? ScanOrder.DESCENDING : ScanOrder.ASCENDING;
        // Linearizable: a scan right after a put by another process (another client) shows it.
        List<KeyValue> found = client.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.scan(range, limit, order));
        print(found, out);
        if (found.size() == limit) {
            err.println("(stopped at --limit " + limit + "; more keys may follow)");
        }
        return 0;
    }

    /** One {@code key value} line per key, in the scan's order. */
    static void print(List<KeyValue> found, PrintStream out) {
        for (KeyValue entry : found) {
            out.println(entry.keyText() + " " + entry.valueText());
        }
    }
}
