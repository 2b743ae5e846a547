package dev.duro.core.certify;

/**
 * How a partition certifies. Every replica of a partition must use identical settings: they influence
 * decisions, so they are part of the partition's configuration, not of a node's.
 *
 * @param windowTransactions K: how many certified transactions are retained to certify against. A transaction
 *     whose snapshot is more than K numbers behind the newest certified one aborts as too old.
 * @param bloomReadSetKeysMin readsets of at least this many keys are summarised by a bloom filter instead of
 *     the exact per-key index ({@link Integer#MAX_VALUE}: always exact; 0: always bloom)
 * @param bloomFalsePositiveRate the target false-positive rate of each readset bloom filter
 * @param strongerTestForGlobal apply S-DUR's readset-versus-writeset test to global transactions. Only the
 *     simulation's mutant turns it off, to prove the checker notices.
 */
public record CertifierSettings(
        int windowTransactions, int bloomReadSetKeysMin, double bloomFalsePositiveRate, boolean strongerTestForGlobal) {
    public static final CertifierSettings DEFAULT = new CertifierSettings(100_000, 1_024, 0.001, true);

    public CertifierSettings {
        if (windowTransactions < 1) {
            throw new IllegalArgumentException("certification.window-transactions must be >= 1: " + windowTransactions);
        }
        if (bloomReadSetKeysMin < 0) {
            throw new IllegalArgumentException(
                    "certification.bloom-read-set-keys-min must be >= 0: " + bloomReadSetKeysMin);
        }
        if (!(bloomFalsePositiveRate > 0 && bloomFalsePositiveRate < 1)) {
            throw new IllegalArgumentException(
                    "certification.bloom-false-positive-rate must be in (0, 1): " + bloomFalsePositiveRate);
        }
    }

    public CertifierSettings withWindowTransactions(int window) {
        return new CertifierSettings(window, bloomReadSetKeysMin, bloomFalsePositiveRate, strongerTestForGlobal);
    }

    public CertifierSettings withBloomReadSetKeysMin(int keys) {
        return new CertifierSettings(windowTransactions, keys, bloomFalsePositiveRate, strongerTestForGlobal);
    }

    public CertifierSettings withStrongerTestForGlobal(boolean enabled) {
        return new CertifierSettings(windowTransactions, bloomReadSetKeysMin, bloomFalsePositiveRate, enabled);
    }

    public static CertifierSettings exact(int window) {
        return DEFAULT.withWindowTransactions(window).withBloomReadSetKeysMin(Integer.MAX_VALUE);
    }

    public static CertifierSettings bloom(int window) {
        return DEFAULT.withWindowTransactions(window).withBloomReadSetKeysMin(0);
    }
}
