package dev.duro.client;

import static dev.duro.client.FakeCluster.commit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link DuroClient#transactAsync} and {@link DuroClient#readOnlyAsync} keep {@link DuroClient#transact}'s rules of
 * retry and resend (every scenario of {@link TransactRetryTest}, run through them) without holding a thread.
 */
class TransactAsyncRetryTest extends TransactRetryTest {
    @Override
    String transfer() {
        return Transaction.join(client.transactAsync(tx -> {
            runs.incrementAndGet();
            return tx.getAsync(Bytes.utf8("alice")).thenApply(alice -> {
                tx.putLong("alice", -10);
                tx.putLong("bob", 10);
                return "done";
            });
        }));
    }

    @Override
    String readA() {
        return Transaction.join(client.readOnlyAsync(ro -> {
            runs.incrementAndGet();
            return ro.getAsync(Bytes.utf8("a")).thenApply(value -> value == null ? null : value.toUtf8());
        }));
    }

    @Test
    void theCallerHasItsFutureWhileTheBodyIsStillRunning() throws Exception {
        cluster.then(commit());
        CompletableFuture<String> body = new CompletableFuture<>();

        CompletableFuture<String> result = client.transactAsync(tx -> {
            tx.putLong("bob", 10);
            return body;
        });

        assertFalse(result.isDone(), "returned before the body's stage completed");
        assertTrue(cluster.commits().isEmpty(), "nothing committed before the body's stage completed");
        body.complete("done");
        assertEquals("done", result.get(10, TimeUnit.SECONDS));
        assertEquals(1, cluster.commits().size(), "commit requests received");
    }
}
