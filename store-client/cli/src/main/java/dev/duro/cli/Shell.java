package dev.duro.cli;

import dev.duro.client.CommitResult;
import dev.duro.client.DuroClient;
import dev.duro.client.KeyValue;
import dev.duro.client.ReadConsistency;
import dev.duro.client.ScanOrder;
import dev.duro.client.Transaction;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.KeyRange;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.annotation.Nullable;

/**
 * {@code ./duro shell}: an interactive prompt. Outside {@code begin ... commit}, each get, put and scan runs in its
 * own transaction.
 */
final class Shell {
    private final DuroClient client;
    private final BufferedReader in;
    private final PrintStream out;
    private @Nullable Transaction open;

    private static final int DEFAULT_SCAN_LIMIT = 100;

    Shell(DuroClient client, InputStream input, PrintStream out) {
        this.client = client;
        this.in = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        this.out = out;
    }

    void run() {
        out.println("duro shell — " + client.cluster() + "\ntype 'help' for commands");
        while (true) {
            out.print(open == null ? "duro> " : "duro(tx)> ");
            out.flush();
            String line;
            try {
                line = in.readLine();
            } catch (IOException e) {
                return;
            }
            if (line == null) {
                return;
            }
            String[] words = line.trim().split("\\s+", 3);
            if (words[0].isEmpty()) {
                continue;
            }
            try {
                if (!execute(words)) {
                    return;
                }
            } catch (DuroException | IllegalStateException e) {
                out.println("error: " + e.getMessage());
                if (open != null && !(e instanceof IllegalStateException)) {
                    open = null;
                    out.println("(transaction ended)");
                }
            }
        }
    }

    private boolean execute(String[] words) {
        switch (words[0]) {
            case "begin" -> {
                if (open != null) {
                    out.println("a transaction is already open: commit or rollback first");
                } else {
                    open = client.begin();
                    out.println("begun " + open.id());
                }
            }
            case "get" -> {
                require(words, 2, "get KEY");
                String value = open != null ? open.get(words[1]) : client.get(words[1]);
                out.println(value == null ? "(not found)" : value);
            }
            case "put" -> {
                require(words, 3, "put KEY VALUE");
                if (open != null) {
                    open.put(words[1], words[2]);
                    out.println("buffered");
                } else {
                    out.println("committed " + client.put(words[1], words[2]).versions());
                }
            }
            case "delete" -> {
                require(words, 2, "delete KEY");
                if (open == null) {
                    out.println("delete needs an open transaction (begin)");
                } else {
                    open.delete(words[1]);
                    out.println("buffered");
                }
            }
            case "commit" -> {
                if (open == null) {
                    out.println("no open transaction");
                } else {
                    Transaction committing = open;
                    open = null;
                    CommitResult result = committing.commit();
                    out.println("committed " + result.versions());
                }
            }
            case "rollback" -> {
                if (open != null) {
                    open.rollback();
                    open = null;
                }
                out.println("rolled back");
            }
            case "scan" -> {
                require(words, 3, "scan FROM TO [LIMIT]");
                String[] rest = words[2].split("\\s+");
                Bytes from = Bytes.utf8(words[1]);
                Bytes to = Bytes.utf8(rest[0]);
                if (from.compareTo(to) >= 0) {
                    throw new IllegalStateException("TO must sort after FROM; usage: scan FROM TO [LIMIT]");
                }
                scan(new KeyRange(from, to), limitOf(rest, 1, "scan FROM TO [LIMIT]"));
            }
            case "scanprefix" -> {
                require(words, 2, "scanprefix P [LIMIT]");
                scan(KeyRange.prefix(Bytes.utf8(words[1])), limitOf(words, 2, "scanprefix P [LIMIT]"));
            }
            case "help" -> out.println("begin | get KEY | put KEY VALUE | delete KEY | scan FROM TO [LIMIT] |"
                    + " scanprefix P [LIMIT] | commit | rollback | status | exit");
            case "status" -> out.println(client.refreshCluster());
            case "exit", "quit" -> {
                return false;
            }
            default -> out.println("unknown command '" + words[0] + "' (help lists them)");
        }
        return true;
    }

    /**
     * Prints the keys of {@code range}, one {@code key value} line each: in the open transaction (its writes
     * included, the range certified at its commit), else in a linearizable read-only transaction of its own.
     */
    private void scan(KeyRange range, int limit) {
        List<KeyValue> found = open != null
                ? open.scan(range, limit, ScanOrder.ASCENDING)
                : client.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.scan(range, limit, ScanOrder.ASCENDING));
        for (KeyValue entry : found) {
            out.println(entry.keyText() + " " + entry.valueText());
        }
        out.println("(" + found.size() + (found.size() == 1 ? " key" : " keys")
                + (found.size() == limit ? ", the limit" : "") + ")");
    }

    /** The optional limit at {@code words[index]}, 100 if absent. */
    private static int limitOf(String[] words, int index, String usage) {
        if (words.length <= index) {
            return DEFAULT_SCAN_LIMIT;
        }
        try {
            int limit = Integer.parseInt(words[index].trim());
            if (limit >= 1) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalStateException(
                "LIMIT must be a number of at least 1, not '" + words[index].trim() + "'; usage: " + usage);
    }

    private static void require(String[] words, int count, String usage) {
        if (words.length < count) {
            throw new IllegalStateException("usage: " + usage);
        }
    }
}
