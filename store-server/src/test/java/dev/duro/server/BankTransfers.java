package dev.duro.server;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.ServerErrorException;
import dev.duro.client.TransactionAbortedException;
import dev.duro.client.UnavailableException;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.wire.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load for fault tests: bank transfers between accounts spread over every partition, most of them global, from
 * several threads through the real client. Each transfer moves a fixed amount (chosen before it starts, so every
 * run of its body moves the same) and also writes a marker key of its own holding {@code from>to:amount}: after the
 * run, which transfers committed is read from the markers, whatever their clients were told, and every balance
 * must be its opening balance moved by exactly those. Balances may go negative; only conservation is checked.
 *
 * <p>A transfer ends acknowledged (committed), refused (aborted by certification on every attempt, or refused before
 * its commit was sent: it surely did not commit) or uncertain (the client may not know: no coordinator answered, or
 * the partitions no longer retain the outcome, {@code OUTCOME_UNKNOWN}).
 */
final class BankTransfers implements AutoCloseable {
    static final long OPENING_BALANCE = 1_000;
    private static final int TRANSFERS_PER_THREAD_MAX = 100_000;

    /** One transfer, as its marker records it. */
    record Transfer(String from, String to, long amount) {
        String encoded() {
            return from + ">" + to + ":" + amount;
        }
    }

    private final DuroClient client;
    private final ClusterView view;
    private final List<List<String>> accountsByPartition = new ArrayList<>();
    private final Set<String> accounts = new LinkedHashSet<>();
    private final int globalPercent;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();

    private final Map<String, Transfer> attempted = new ConcurrentHashMap<>();
    private final Map<String, Transfer> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, Transfer> refused = new ConcurrentHashMap<>();
    private final Map<String, Transfer> uncertain = new ConcurrentHashMap<>();
    private final AtomicInteger outcomeUnknown = new AtomicInteger();
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();

    /**
     * Opens {@code accountsPerPartition} accounts in every partition (in one transaction) and starts the threads.
     *
     * @param globalPercent the share of transfers between accounts of different partitions
     */
    BankTransfers(DuroClient client, int accountsPerPartition, int threadCount, int globalPercent) {
        this.client = client;
        this.view = client.cluster();
        this.globalPercent = globalPercent;
        for (int p = 0; p < view.partitionCount(); p++) {
            List<String> own = TestCluster.keysOf(view, p, "account-", accountsPerPartition);
            accountsByPartition.add(own);
            accounts.addAll(own);
        }
        client.transact(tx -> {
            for (String account : accounts) {
                tx.putLong(account, OPENING_BALANCE);
            }
            return null;
        });
        for (int t = 0; t < threadCount; t++) {
            int thread = t;
            threads.add(new Thread(() -> run(thread), "bank-transfers-" + t));
        }
        threads.forEach(Thread::start);
    }

    private void run(int thread) {
        Random random = new Random(thread * 7_919L + 1);
        for (int i = 0; i < TRANSFERS_PER_THREAD_MAX && !stopping.get(); i++) {
            String marker = "transfer-" + thread + "-" + i;
            Transfer transfer = choose(random);
            attempted.put(marker, transfer);
            try {
                client.transact(tx -> {
                    long from = tx.getLong(transfer.from());
                    long to = tx.getLong(transfer.to());
                    tx.putLong(transfer.from(), from - transfer.amount());
                    tx.putLong(transfer.to(), to + transfer.amount());
                    tx.put(marker, transfer.encoded());
                    return null;
                });
                acknowledged.put(marker, transfer);
            } catch (TransactionAbortedException | SnapshotTooOldException e) {
                refused.put(marker, transfer); // every attempt surely did not commit
            } catch (UnavailableException e) {
                if (e.outcomeUnknown()) {
                    uncertain.put(marker, transfer);
                    if (e.getMessage().contains("no longer retained")) {
                        outcomeUnknown.incrementAndGet();
                    }
                } else {
                    refused.put(marker, transfer);
                }
                Await.pause(20); // the cluster is changing: do not spin
            } catch (ServerErrorException e) {
                if (e.code() == ErrorCode.NOT_READY
                        || e.code() == ErrorCode.SNAPSHOT_NOT_READY
                        || e.code() == ErrorCode.OVERLOADED) {
                    uncertain.put(marker, transfer); // may come from the commit: counted by its marker
                    Await.pause(20);
                } else {
                    failures.add(marker + ": " + e);
                }
            } catch (RuntimeException e) {
                failures.add(marker + ": " + e);
            }
        }
    }

    private Transfer choose(Random random) {
        int partitions = accountsByPartition.size();
        int fromPartition = random.nextInt(partitions);
        int toPartition = partitions > 1 && random.nextInt(100) < globalPercent
                ? (fromPartition + 1 + random.nextInt(partitions - 1)) % partitions
                : fromPartition;
        List<String> fromAccounts = accountsByPartition.get(fromPartition);
        List<String> toAccounts = accountsByPartition.get(toPartition);
        String from = fromAccounts.get(random.nextInt(fromAccounts.size()));
        String to = toAccounts.get(random.nextInt(toAccounts.size()));
        while (to.equals(from)) {
            to = toAccounts.get(random.nextInt(toAccounts.size()));
        }
        return new Transfer(from, to, 1 + random.nextInt(50));
    }

    /** Waits until {@code more} further transfers are acknowledged. */
    void awaitMoreCommits(int more, String when) {
        int target = acknowledged.size() + more;
        Await.until(more + " more transfers " + when, () -> {
            if (!failures.isEmpty()) {
                throw new AssertionError("transfers failed: " + failures);
            }
            int now = acknowledged.size();
            return now >= target
                    ? Await.Poll.done(now)
                    : Await.Poll.notYet(now + " of " + target + " acknowledged, " + refused.size() + " refused, "
                            + uncertain.size() + " uncertain");
        });
    }

    /** Stops the threads and waits for them. */
    void stop() {
        stopping.set(true);
        Await.joinAll(threads);
    }

    Set<String> accounts() {
        return Set.copyOf(accounts);
    }

    Set<String> attemptedMarkers() {
        return Set.copyOf(attempted.keySet());
    }

    Map<String, Transfer> attempted() {
        return Map.copyOf(attempted);
    }

    Map<String, Transfer> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    Map<String, Transfer> refused() {
        return Map.copyOf(refused);
    }

    Map<String, Transfer> uncertain() {
        return Map.copyOf(uncertain);
    }

    /** Transfers whose client was told the partitions no longer retain the outcome. */
    int outcomeUnknownCount() {
        return outcomeUnknown.get();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    @Override
    public void close() {
        stop();
    }
}
