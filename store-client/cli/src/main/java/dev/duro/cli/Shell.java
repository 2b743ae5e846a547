package dev.duro.cli;

import dev.duro.client.CommitResult;
import dev.duro.client.DuroClient;
import dev.duro.client.Transaction;
import dev.duro.core.DuroException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code ./duro shell}: an interactive prompt. Outside {@code begin ... commit}, each get and put runs in its
 * own transaction.
 */
final class Shell {
    private final DuroClient client;
    private final BufferedReader in;
    private final PrintStream out;
    private Transaction open;

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
            case "help" -> out.println(
                    "begin | get KEY | put KEY VALUE | delete KEY | commit | rollback | status | exit");
            case "status" -> out.println(client.refreshCluster());
            case "exit", "quit" -> {
                return false;
            }
            default -> out.println("unknown command '" + words[0] + "' (help lists them)");
        }
        return true;
    }

    private static void require(String[] words, int count, String usage) {
        if (words.length < count) {
            throw new IllegalStateException("usage: " + usage);
        }
    }
}
