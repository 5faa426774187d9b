package io.dlock.baselines;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The measuring loops of {@code dlock bench}, for locks that are not dlock's: uncontended lock+unlock
 * latency of one thread on node 1 (median, p99 from a sorted array of every sample), and contended
 * throughput of T threads on each of N nodes, with Jain's index and the longest run of one node.
 * Every acquisition is bounded; a timed-out one counts as a failure and ends that thread's loop.
 * Prints one JSON object per line, in the shape of {@code dlock bench --format json}.
 */
final class Harness {

    /** One node's handle on the lock. */
    interface NodeLock {
        /** Acquires within the time, or returns false. */
        boolean tryLock(long seconds) throws Exception;

        void unlock() throws Exception;
    }

    private final double warmup;
    private final double seconds;
    private final long lockTimeout;

    Harness(double warmup, double seconds, long lockTimeout) {
        this.warmup = warmup;
        this.seconds = seconds;
        this.lockTimeout = lockTimeout;
    }

    /** One thread on {@code lock} alone; a JSON row. */
    String uncontended(String system, String transport, String algorithm, int nodes, NodeLock lock) throws Exception {
        long failures = 0;
        long warmEnd = System.nanoTime() + (long) (warmup * 1e9);
        while (System.nanoTime() < warmEnd) {
            if (!once(lock)) {
                failures++;
                break;
            }
        }
        long[] samples = new long[1 << 12];
        int count = 0;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (failures == 0 && count < 2_000_000) {
            long s = System.nanoTime();
            if (s >= end) {
                break;
            }
            if (!once(lock)) {
                failures++;
                break;
            }
            if (count == samples.length) {
                samples = Arrays.copyOf(samples, count * 2);
            }
            samples[count++] = System.nanoTime() - s;
        }
        long[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        return row(system, transport, algorithm, "uncontended", nodes, 1, count, percentile(sorted, 0.5),
                percentile(sorted, 0.99), count / seconds, Double.NaN, 0, failures);
    }

    private boolean once(NodeLock lock) throws Exception {
        if (!lock.tryLock(lockTimeout)) {
            return false;
        }
        lock.unlock();
        return true;
    }

    /** {@code perNode} threads on each of the nodes' locks; a JSON row. */
    String contended(String system, String transport, String algorithm, List<? extends NodeLock> locks, int perNode)
            throws Exception {
        int n = locks.size();
        AtomicInteger phase = new AtomicInteger();
        AtomicLong failures = new AtomicLong();
        AtomicLong[] counts = new AtomicLong[n];
        int[] sequence = new int[1 << 20];
        int[] length = new int[1];
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            counts[i] = new AtomicLong();
            NodeLock lock = locks.get(i);
            int node = i;
            for (int k = 0; k < perNode; k++) {
                Thread w = new Thread(() -> {
                    try {
                        while (phase.get() < 2) {
                            if (!lock.tryLock(lockTimeout)) {
                                failures.incrementAndGet();
                                return;
                            }
                            try {
                                if (phase.get() == 1) {
                                    counts[node].incrementAndGet();
                                    synchronized (sequence) {
                                        if (length[0] < sequence.length) {
                                            sequence[length[0]++] = node;
                                        }
                                    }
                                }
                            } finally {
                                lock.unlock();
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }, system + "-n" + (i + 1) + "-t" + k);
                w.setDaemon(true);
                workers.add(w);
            }
        }
        workers.forEach(Thread::start);
        Thread.sleep((long) (warmup * 1e3));
        long started = System.nanoTime();
        phase.set(1);
        Thread.sleep((long) (seconds * 1e3));
        phase.set(2);
        long elapsed = System.nanoTime() - started;
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(lockTimeout + 10));
            if (w.isAlive()) {
                failures.incrementAndGet();
                w.interrupt();
            }
        }
        long total = 0;
        double squares = 0;
        for (AtomicLong c : counts) {
            total += c.get();
            squares += (double) c.get() * c.get();
        }
        long maxRun = 0;
        long run = 0;
        synchronized (sequence) {
            for (int i = 0; i < length[0]; i++) {
                run = i > 0 && sequence[i] == sequence[i - 1] ? run + 1 : 1;
                maxRun = Math.max(maxRun, run);
            }
        }
        double jain = squares == 0 ? Double.NaN : (double) total * total / (n * squares);
        return row(system, transport, algorithm, "contended", n, perNode, total, Double.NaN, Double.NaN,
                total / (elapsed / 1e9), jain, maxRun, failures.get());
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
        return sorted[i] / 1e3;
    }

    private static String row(String system, String transport, String algorithm, String kind, int nodes, int threads,
                              long samples, double medianUs, double p99Us, double opsPerSec, double jain, long maxRun,
                              long failures) {
        return String.format(Locale.ROOT, "{\"system\": \"%s\", \"transport\": \"%s\", \"algorithm\": \"%s\", "
                        + "\"kind\": \"%s\", \"nodes\": %d, \"threads\": %d, \"handoff\": 0, \"samples\": %d, "
                        + "\"medianUs\": %s, \"p99Us\": %s, \"opsPerSec\": %s, \"msgsPerEntry\": null, \"jain\": %s, "
                        + "\"maxRun\": %d, \"failures\": %d}",
                system, transport, algorithm, kind, nodes, threads, samples, num(medianUs), num(p99Us), num(opsPerSec),
                num(jain), maxRun, failures);
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }
}
