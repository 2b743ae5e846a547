package dev.duro.core;

/**
 * The size limits every key, value and transaction must respect, checked at the client and again at the server.
 *
 * @param keyBytesMax the longest key, in bytes (default 4 KiB)
 * @param valueBytesMax the longest value, in bytes (default 1 MiB)
 * @param transactionKeysMax the most distinct keys one transaction may read or write (default 10,000)
 */
public record Limits(int keyBytesMax, int valueBytesMax, int transactionKeysMax) {
    public static final Limits DEFAULT = new Limits(4 * 1024, 1024 * 1024, 10_000);
    /**
     * The largest limits a cluster may be configured with. A client decodes replies within these, whatever the
     * cluster's own (which it learns from the cluster, {@code ClusterInfoReply}), so it never refuses a value the
     * cluster accepted.
     */
    public static final Limits CEILING = new Limits(1 << 20, 64 << 20, 1_000_000);

    /** The most partitions a cluster may have; bounds participant lists and vectors. */
    public static final int PARTITIONS_MAX = 4096;

    /** The limits, each with the setting name that configures it. */
    public enum Limit {
        KEY_BYTES("limits.key-bytes-max", "bytes"),
        VALUE_BYTES("limits.value-bytes-max", "bytes"),
        TRANSACTION_KEYS("limits.transaction-keys-max", "keys");

        private final String settingName;
        private final String unit;

        Limit(String settingName, String unit) {
            this.settingName = settingName;
            this.unit = unit;
        }

        public String settingName() {
            return settingName;
        }

        public String unit() {
            return unit;
        }
    }

    public Limits {
        requirePositive(keyBytesMax, Limit.KEY_BYTES);
        requirePositive(valueBytesMax, Limit.VALUE_BYTES);
        requirePositive(transactionKeysMax, Limit.TRANSACTION_KEYS);
    }

    private static void requirePositive(int value, Limit limit) {
        if (value <= 0) {
            throw new IllegalArgumentException(limit.settingName() + " must be positive, was " + value);
        }
    }

    public void checkKey(Bytes key) {
        check(Limit.KEY_BYTES, key.size(), keyBytesMax);
    }

    public void checkValue(Bytes value) {
        check(Limit.VALUE_BYTES, value.size(), valueBytesMax);
    }

    public void checkTransactionKeys(int keys) {
        check(Limit.TRANSACTION_KEYS, keys, transactionKeysMax);
    }

    private static void check(Limit limit, long actual, long maximum) {
        if (actual > maximum) {
            throw new LimitExceededException(limit, actual, maximum);
        }
    }
}
