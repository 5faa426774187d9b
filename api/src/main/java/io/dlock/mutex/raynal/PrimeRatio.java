package io.dlock.mutex.raynal;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An exact positive rational of the form {@code Π_k A_k^{e_k}} over the nodes' pairwise coprime
 * attributes {@code A_k} (docs/algorithms.md A11), stored as its exponent vector: a sorted list of (rank k,
 * exponent e_k ≠ 0). Because the attributes are pairwise coprime and greater than 1, the vector is
 * unique, so equality of vectors is equality of the rationals, and multiplying rationals adds
 * vectors. This is the representation docs/algorithms.md recommends ("equivalently and faster"); it never
 * rounds and its size does not grow with the number of entries (an X value has at most two non-zero
 * exponents; only the exponents grow, by one per pass). {@link #toFraction} gives the
 * {@link BigInteger} numerator and denominator with the odd primes 3, 5, 7, 11, ... as attributes, as
 * in the source notes' example.
 *
 * <p>Immutable, so values are shared: the attributes always, other values when equal ones are made close
 * together ({@link #of}). Safe from any thread.
 */
public final class PrimeRatio {

    /** The rational 1. */
    public static final PrimeRatio ONE = new PrimeRatio(new int[0], new long[0]);

    private final int[] ranks;
    private final long[] exponents;

    private PrimeRatio(int[] ranks, long[] exponents) {
        this.ranks = ranks;
        this.exponents = exponents;
    }

    /**
     * The rational with the given exponents (zero exponents are dropped).
     *
     * @throws IllegalArgumentException if a rank is negative
     */
    public static PrimeRatio of(Map<Integer, Long> exponents) {
        TreeMap<Integer, Long> sorted = new TreeMap<>();
        for (Map.Entry<Integer, Long> e : exponents.entrySet()) {
            if (e.getKey() < 0) {
                throw new IllegalArgumentException("rank must be >= 0, got " + e.getKey());
            }
            if (e.getValue() != 0) {
                sorted.put(e.getKey(), e.getValue());
            }
        }
        int[] r = new int[sorted.size()];
        long[] x = new long[sorted.size()];
        int i = 0;
        for (Map.Entry<Integer, Long> e : sorted.entrySet()) {
            r[i] = e.getKey();
            x[i++] = e.getValue();
        }
        return interned(new PrimeRatio(r, x));
    }

    /**
     * Values made lately, one per slot of a direct-mapped table indexed by hash: {@link #of} returns the value in
     * its slot when it is equal to the one just made, else stores the new one there. So the X values that many live
     * locks hold alike (after a pass, every lock of a cluster holds one of a few values) are kept once, not once per
     * lock and member; a collision only costs a copy. Values are immutable and compared with {@link #equals}, never
     * by identity, so sharing them changes nothing else.
     */
    private static final int INTERNED = 1 << 10;
    private static final AtomicReferenceArray<PrimeRatio> RECENT = new AtomicReferenceArray<>(INTERNED);

    private static PrimeRatio interned(PrimeRatio made) {
        int h = made.hashCode();
        int slot = (h ^ (h >>> 16)) & (INTERNED - 1);
        PrimeRatio known = RECENT.get(slot);
        if (made.equals(known)) {
            return known;
        }
        RECENT.set(slot, made);
        return made;
    }

    /**
     * The attributes of ranks below {@value #SHARED_ATTRIBUTES}, made at first use and always shared (immutable;
     * unlike {@link #RECENT}, never replaced): every X that is not being passed is its node's attribute, so each
     * live lock used to keep a copy of each.
     */
    private static final int SHARED_ATTRIBUTES = 1 << 10;
    private static final AtomicReferenceArray<PrimeRatio> ATTRIBUTES = new AtomicReferenceArray<>(SHARED_ATTRIBUTES);

    /** {@code A_rank}: the attribute of the node of rank {@code rank}. */
    public static PrimeRatio attribute(int rank) {
        if (rank < 0 || rank >= SHARED_ATTRIBUTES) {
            return of(Map.of(rank, 1L));
        }
        PrimeRatio shared = ATTRIBUTES.get(rank);
        if (shared == null) {
            shared = of(Map.of(rank, 1L));
            ATTRIBUTES.set(rank, shared); // a race at worst stores an equal value
        }
        return shared;
    }

    /** {@code this · other}. */
    public PrimeRatio times(PrimeRatio other) {
        Map<Integer, Long> sum = toMap();
        for (int i = 0; i < other.ranks.length; i++) {
            sum.merge(other.ranks[i], other.exponents[i], Math::addExact);
        }
        return of(sum);
    }

    /** {@code this · A_up / A_down}: Raynal's exit rule {@code X_i := X_i · A_i / A_j}. */
    public PrimeRatio timesRatio(int up, int down) {
        if (up == down) {
            return this;
        }
        Map<Integer, Long> m = toMap();
        m.merge(up, 1L, Math::addExact);
        m.merge(down, -1L, Math::addExact);
        return of(m);
    }

    /** The exponent of {@code A_rank} (0 if absent). */
    public long exponent(int rank) {
        int i = Arrays.binarySearch(ranks, rank);
        return i >= 0 ? exponents[i] : 0;
    }

    /** Number of non-zero exponents. */
    public int size() {
        return ranks.length;
    }

    /** The rank of the {@code i}-th non-zero exponent, ascending. */
    public int rankAt(int i) {
        return ranks[i];
    }

    /** The {@code i}-th non-zero exponent. */
    public long exponentAt(int i) {
        return exponents[i];
    }

    /**
     * Whether this is {@code Q / A_i} for {@code n} nodes: every exponent 1 except that of rank
     * {@code i}, which is 0 (Raynal's privilege test {@code T == Q / A_i}).
     */
    public boolean isQOver(int i, int n) {
        if (ranks.length != n - 1) {
            return false;
        }
        for (int k = 0; k < ranks.length; k++) {
            if (ranks[k] == i || ranks[k] >= n || exponents[k] != 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * Numerator and denominator, reduced, with {@code A_k} the (k+1)-th odd prime (3, 5, 7, 11, ...).
     * For tests and display: their size grows with the exponents.
     */
    public BigInteger[] toFraction() {
        BigInteger num = BigInteger.ONE;
        BigInteger den = BigInteger.ONE;
        int maxRank = ranks.length == 0 ? 0 : ranks[ranks.length - 1];
        long[] primes = oddPrimes(maxRank + 1);
        for (int k = 0; k < ranks.length; k++) {
            BigInteger p = BigInteger.valueOf(primes[ranks[k]]).pow(Math.toIntExact(Math.abs(exponents[k])));
            if (exponents[k] > 0) {
                num = num.multiply(p);
            } else {
                den = den.multiply(p);
            }
        }
        return new BigInteger[] {num, den};
    }

    /** The first {@code count} odd primes: 3, 5, 7, 11, ... */
    public static long[] oddPrimes(int count) {
        long[] primes = new long[count];
        int found = 0;
        for (long c = 3; found < count; c += 2) {
            boolean prime = true;
            for (int i = 0; i < found && primes[i] * primes[i] <= c; i++) {
                if (c % primes[i] == 0) {
                    prime = false;
                    break;
                }
            }
            if (prime) {
                primes[found++] = c;
            }
        }
        return primes;
    }

    private Map<Integer, Long> toMap() {
        Map<Integer, Long> m = new TreeMap<>();
        for (int i = 0; i < ranks.length; i++) {
            m.put(ranks[i], exponents[i]);
        }
        return m;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrimeRatio p && Arrays.equals(ranks, p.ranks) && Arrays.equals(exponents, p.exponents);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ranks) * 31 + Arrays.hashCode(exponents);
    }

    @Override
    public String toString() {
        if (ranks.length == 0) {
            return "1";
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < ranks.length; i++) {
            s.append(i == 0 ? "" : "·").append('A').append(ranks[i]);
            if (exponents[i] != 1) {
                s.append('^').append(exponents[i]);
            }
        }
        return s.toString();
    }
}
