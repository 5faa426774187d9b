package io.dlock.samples.bench;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which of the keys {@code 0..K-1} a per-key run has used: a bit set that many threads mark at once (one bit per
 * key, so 1.25 MB for the largest K, 10^7), and {@link #count()} the distinct keys among them.
 */
final class UsedKeys {

    private final AtomicLongArray words;
    private final int keys;

    /** No key used yet, of {@code keys} possible ones. */
    UsedKeys(int keys) {
        if (keys < 1) {
            throw new IllegalArgumentException("a run needs at least 1 key, got " + keys);
        }
        this.keys = keys;
        this.words = new AtomicLongArray((keys + 63) / 64);
    }

    /** Marks {@code key} (in {@code 0..keys-1}) as used; cheap when it was already. */
    void mark(int key) {
        if (key < 0 || key >= keys) {
            throw new IndexOutOfBoundsException("key " + key + " is outside 0.." + (keys - 1));
        }
        int i = key >>> 6;
        long bit = 1L << key;
        long word = words.get(i);
        while ((word & bit) == 0) {
            long seen = words.compareAndExchange(i, word, word | bit);
            if (seen == word) {
                return;
            }
            word = seen;
        }
    }

    /** How many distinct keys were marked. */
    long count() {
        long n = 0;
        for (int i = 0; i < words.length(); i++) {
            n += Long.bitCount(words.get(i));
        }
        return n;
    }
}
