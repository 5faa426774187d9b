package io.dlock.inmemory.sim;

import java.util.SplittableRandom;

/**
 * What the application on each simulated node does: a number of critical-section entries, each
 * preceded by a random think time and held for a random hold time, in virtual time units.
 *
 * <p>Every node runs the cycle <em>think → request → (granted) → hold → release</em> until it has
 * made its share of requests; it never has two requests outstanding (the precondition of
 * {@link io.dlock.protocol.MutexProtocol}). Think and hold times are drawn independently per node
 * from that node's own workload random source, so a change to one node's schedule does not shift
 * another's. Ranges may be {@code [0, 0]}: "all nodes request at t = 0" and "zero processing
 * time" of docs/algorithms.md 0.4 are {@code think(0, 0)} and {@code hold(0, 0)}.
 *
 * <p>Immutable: every method returns a new workload.
 */
public final class Workload {

    private final long entries;
    private final boolean perNode;
    private final long thinkMin;
    private final long thinkMax;
    private final long holdMin;
    private final long holdMax;
    /** Node indices that make no request at all, ascending. */
    private final int[] idle;

    private Workload(long entries, boolean perNode, long thinkMin, long thinkMax, long holdMin, long holdMax) {
        this(entries, perNode, thinkMin, thinkMax, holdMin, holdMax, new int[0]);
    }

    private Workload(long entries, boolean perNode, long thinkMin, long thinkMax, long holdMin, long holdMax,
                     int[] idle) {
        if (entries < 0) {
            throw new IllegalArgumentException("number of entries must be >= 0, got " + entries);
        }
        checkRange("think", thinkMin, thinkMax);
        checkRange("hold", holdMin, holdMax);
        this.entries = entries;
        this.perNode = perNode;
        this.thinkMin = thinkMin;
        this.thinkMax = thinkMax;
        this.holdMin = holdMin;
        this.holdMax = holdMax;
        this.idle = idle;
    }

    /**
     * Every node makes {@code entries} requests; think time {@code [0, 20]}, hold time {@code [0, 5]}
     * unless changed.
     *
     * @throws IllegalArgumentException if {@code entries} is negative
     */
    public static Workload perNode(int entries) {
        return new Workload(entries, true, 0, 20, 0, 5);
    }

    /**
     * {@code entries} requests in all, shared round-robin: node {@code i} makes
     * {@code entries / N} requests, plus one if {@code i < entries % N}.
     *
     * @throws IllegalArgumentException if {@code entries} is negative
     */
    public static Workload total(long entries) {
        return new Workload(entries, false, 0, 20, 0, 5);
    }

    /** No requests at all (for runs that only exercise faults or timers). */
    public static Workload none() {
        return perNode(0);
    }

    /**
     * A copy whose think time before each request is uniform in {@code [min, max]}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= min <= max}
     */
    public Workload think(long min, long max) {
        return new Workload(entries, perNode, min, max, holdMin, holdMax, idle);
    }

    /**
     * A copy whose critical-section hold time is uniform in {@code [min, max]}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= min <= max}
     */
    public Workload hold(long min, long max) {
        return new Workload(entries, perNode, thinkMin, thinkMax, min, max, idle);
    }

    /**
     * A copy in which the nodes of index {@code nodes} make no request at all (the others keep their
     * share), e.g. {@code excluding(0)}: a workload that never involves the node an algorithm starts
     * at (the token ring's first holder, Raynal's first privileged node).
     *
     * @throws IllegalArgumentException if an index is negative
     */
    public Workload excluding(int... nodes) {
        java.util.TreeSet<Integer> set = new java.util.TreeSet<>();
        for (int i : idle) {
            set.add(i);
        }
        for (int i : nodes) {
            if (i < 0) {
                throw new IllegalArgumentException("node index must be >= 0, got " + i);
            }
            set.add(i);
        }
        return new Workload(entries, perNode, thinkMin, thinkMax, holdMin, holdMax,
                set.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Number of requests node {@code index} of {@code n} makes. */
    public long entriesFor(int index, int n) {
        if (java.util.Arrays.binarySearch(idle, index) >= 0) {
            return 0;
        }
        if (perNode) {
            return entries;
        }
        return entries / n + (index < entries % n ? 1 : 0);
    }

    /** Number of requests all {@code n} nodes make together. */
    public long totalEntries(int n) {
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += entriesFor(i, n);
        }
        return total;
    }

    long drawThink(SplittableRandom random) {
        return thinkMin == thinkMax ? thinkMin : thinkMin + random.nextLong(thinkMax - thinkMin + 1);
    }

    long drawHold(SplittableRandom random) {
        return holdMin == holdMax ? holdMin : holdMin + random.nextLong(holdMax - holdMin + 1);
    }

    /** Java code that rebuilds this workload, as used in replay lines. */
    @Override
    public String toString() {
        return (perNode ? "Workload.perNode(" + entries + ")" : "Workload.total(" + entries + "L)")
                + ".think(" + thinkMin + ", " + thinkMax + ").hold(" + holdMin + ", " + holdMax + ")"
                + (idle.length == 0 ? "" : ".excluding(" + java.util.Arrays.stream(idle).mapToObj(Integer::toString)
                        .collect(java.util.stream.Collectors.joining(", ")) + ")");
    }

    private static void checkRange(String what, long min, long max) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException(what + " time range must satisfy 0 <= min <= max, got ["
                    + min + ", " + max + "]");
        }
    }
}
