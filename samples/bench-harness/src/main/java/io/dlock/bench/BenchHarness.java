package io.dlock.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The measuring loops of {@code dlock bench} and of the benchmark baselines:
 * <ul>
 *   <li>{@link #latency}: one thread runs an operation in a loop, first for the warm-up, then for the
 *       measured seconds, timing every call; median and p99 from the sorted array of every sample, and
 *       calls per (configured) second. {@link #uncontended} is that loop over lock+unlock of one lock;
 *       {@link #interleaved} runs several such loops in turn, slice by slice, so that their figures are
 *       taken in the same minutes;</li>
 *   <li>{@link #contended}: {@code perNode} threads on each node take and release that node's lock in a
 *       loop; after the warm-up, the entries of the measured seconds are counted per node and in order,
 *       giving operations per second over the whole cluster, {@linkplain #jain Jain's index} and the
 *       {@linkplain #longestRun longest run} of consecutive entries by one node;</li>
 *   <li>{@link #contendedPicking}: the same loop, but each entry takes the lock its node's {@link LockPicker}
 *       names, e.g. one of many locks per business key;</li>
 *   <li>{@link #idle}: nothing runs; the warm-up, then a measured window of the measured seconds, for what a
 *       cluster costs while nobody asks (the caller counts the messages, the harness the CPU time).</li>
 * </ul>
 * A {@link Window} hears when the measured window opens and closes, so that a caller can count what
 * happened inside it (dlock counts the messages its nodes sent). Every run also reports the CPU time per
 * operation in the measured window ({@link Measurement#cpuUsPerOp}), read from the harness's {@link CpuClock}: by
 * default the JVM's, which with every node in this JVM is what one operation costs the whole cluster (a figure that
 * slow or uneven thread wake-ups do not move); a system with servers of its own adds theirs.
 *
 * <p>Every wait is bounded: a lock that is not granted within the lock timeout counts as a failure and
 * ends that thread's loop (a latency run stops), and a contended thread that does not stop within the
 * lock timeout plus 10 s after the window closes is counted as a failure and interrupted. The first lock of a
 * harness not granted in time writes every thread's stack to standard error ({@link StallDump}).
 */
public final class BenchHarness {

    /** The most samples a latency run keeps (about 16 MB); the run stops there. */
    public static final int MAX_SAMPLES = 2_000_000;

    /** The most entries whose order a contended run records for the longest run. */
    static final int MAX_SEQUENCE = 1 << 20;

    /** One timed operation of a latency run. */
    @FunctionalInterface
    public interface Operation {
        /**
         * Runs the operation once, bounded in time.
         *
         * @return false if it timed out (the run counts a failure and stops)
         * @throws Exception if it failed (the run stops and the exception propagates)
         */
        boolean run() throws Exception;
    }

    /**
     * An operation of two legs, whose second leg a latency run also times on its own: the unlock of a lock+unlock
     * ({@link #lockUnlock}). A lock whose unlock waits for an answer (JGroups' {@code CENTRAL_LOCK2} waits for the
     * coordinator's confirmation) spends a round trip there; one whose unlock only sends does not.
     */
    public interface TwoLegOperation extends Operation {
        /** How long the second leg of the last call that returned true took, nanoseconds. */
        long lastSecondLegNanos();
    }

    /** Hears when a run's measured window opens and closes (after the warm-up; before the results). */
    public interface Window {
        /** A window that does nothing. */
        Window NONE = new Window() {
        };

        /** Called once, right before the first measured operation. */
        default void opened() {
        }

        /** Called once, right after the last measured operation (contended runs: before the threads are joined). */
        default void closed() {
        }
    }

    private final double warmup;
    private final double seconds;
    private final long lockTimeout;
    private final CpuClock cpu;
    /** Where the host's CPU time is read at the ends of a measured window: {@link HostCpu#now} but in tests. */
    private final Supplier<HostCpu> host;
    /** Where the first lock not granted within the lock timeout writes every thread's stack ({@link StallDump}). */
    private final StallDump stalls = new StallDump(System.err);

    /**
     * A harness with these durations, whose CPU figures are this JVM's ({@link CpuClock#PROCESS}).
     *
     * @param warmupSeconds      warm-up before each measured window, {@code >= 0}
     * @param seconds            length of each measured window, {@code > 0}
     * @param lockTimeoutSeconds the longest wait for one lock, {@code >= 0}
     * @throws IllegalArgumentException naming the bad value
     */
    public BenchHarness(double warmupSeconds, double seconds, long lockTimeoutSeconds) {
        this(warmupSeconds, seconds, lockTimeoutSeconds, CpuClock.PROCESS);
    }

    /**
     * A harness with these durations whose CPU figures are read from {@code cpu}.
     *
     * @param warmupSeconds      warm-up before each measured window, {@code >= 0}
     * @param seconds            length of each measured window, {@code > 0}
     * @param lockTimeoutSeconds the longest wait for one lock, {@code >= 0}
     * @param cpu                the CPU time of the measured system (this JVM, plus its servers if it has some)
     * @throws IllegalArgumentException naming the bad value
     */
    public BenchHarness(double warmupSeconds, double seconds, long lockTimeoutSeconds, CpuClock cpu) {
        this(warmupSeconds, seconds, lockTimeoutSeconds, cpu, HostCpu::now);
    }

    /** A harness that reads the host's CPU time from {@code host}: where a test gives the host's ticks. */
    BenchHarness(double warmupSeconds, double seconds, long lockTimeoutSeconds, CpuClock cpu, Supplier<HostCpu> host) {
        if (!(warmupSeconds >= 0 && warmupSeconds <= 3600)) {
            throw new IllegalArgumentException("warm-up must be between 0 and 3600 seconds, got " + warmupSeconds);
        }
        if (!(seconds > 0 && seconds <= 3600)) {
            throw new IllegalArgumentException("measured seconds must be > 0 and <= 3600, got " + seconds);
        }
        if (lockTimeoutSeconds < 0) {
            throw new IllegalArgumentException("lock timeout must be >= 0 seconds, got " + lockTimeoutSeconds);
        }
        this.warmup = warmupSeconds;
        this.seconds = seconds;
        this.lockTimeout = lockTimeoutSeconds;
        this.cpu = Objects.requireNonNull(cpu, "cpu");
        this.host = Objects.requireNonNull(host, "host");
    }

    /** This harness with the same durations, its CPU figures read from {@code clock}. */
    public BenchHarness withCpuClock(CpuClock clock) {
        return new BenchHarness(warmup, seconds, lockTimeout, clock, host);
    }

    /** What the stall dump says timed out: the lock of the calling thread. */
    private String timedOut() {
        return "dlock bench: a lock was not granted within " + lockTimeout + " s (thread "
                + Thread.currentThread().getName() + ")";
    }

    /** Lock+unlock of {@code lock} by one thread, nobody else asking; see {@link #latency}. */
    public Measurement uncontended(NodeLock lock) throws Exception {
        return uncontended(lock, Window.NONE);
    }

    /** Lock+unlock of {@code lock} by one thread, nobody else asking; see {@link #latency}. */
    public Measurement uncontended(NodeLock lock, Window window) throws Exception {
        return latency(lockUnlock(lock), window);
    }

    /**
     * One lock+unlock of {@code lock}, waiting at most the lock timeout: false if it was not granted in time. Its
     * second leg is the unlock; one instance per thread (it keeps the last call's time of the unlock).
     */
    public TwoLegOperation lockUnlock(NodeLock lock) {
        return new TwoLegOperation() {
            private long unlockNanos;

            @Override
            public boolean run() throws Exception {
                if (!lock.tryLock(lockTimeout)) {
                    stalls.stalled(timedOut());
                    return false;
                }
                long unlocking = System.nanoTime();
                lock.unlock();
                unlockNanos = System.nanoTime() - unlocking;
                return true;
            }

            @Override
            public long lastSecondLegNanos() {
                return unlockNanos;
            }
        };
    }

    /**
     * Runs {@code op} for the warm-up, then times every call for the measured seconds (at most
     * {@link #MAX_SAMPLES} calls). A call that returns false is one failure and ends the run.
     *
     * @return count, median, p99, calls per configured second, failures (0 or 1), CPU per call
     */
    public Measurement latency(Operation op, Window window) throws Exception {
        return interleaved(List.of(op), 1, window).get(0);
    }

    /**
     * Latency runs of several operations interleaved in time, so that their figures are taken under the same
     * conditions of a shared machine (a ratio of two of them does not drift with the machine's load, as the ratio
     * of two runs minutes apart does). The warm-up and the measured seconds are each cut into {@code slices}
     * slices; in every slice each operation runs in turn for its share. So each operation is warmed up and timed
     * for the configured seconds in all, as by {@link #latency}, and the run takes {@code ops.size()} times as long.
     * A call that returns false is one failure of its operation and ends the whole run.
     *
     * @param ops    the operations, each timed on its own (at most {@link #MAX_SAMPLES} calls each)
     * @param slices how many slices the warm-up and the measured seconds are cut into, {@code >= 1}
     * @param window opened right before the first measured call and closed right after the last, of any operation
     * @return one measurement per operation, in the order of {@code ops}: count, median, p99, calls per configured
     *         second, failures (0 or 1), the CPU time of its own slices per call, and for a {@link TwoLegOperation}
     *         the median of its second leg
     * @throws IllegalArgumentException if there is no operation or {@code slices < 1}
     */
    public List<Measurement> interleaved(List<Operation> ops, int slices, Window window) throws Exception {
        if (ops.isEmpty() || slices < 1) {
            throw new IllegalArgumentException("an interleaved run needs at least one operation and one slice, got "
                    + ops.size() + " operations and " + slices + " slices");
        }
        int k = ops.size();
        int failed = -1;
        long warmSlice = nanos(warmup) / slices;
        warming:
        for (int s = 0; s < slices; s++) {
            for (int i = 0; i < k; i++) {
                long end = System.nanoTime() + warmSlice;
                while (System.nanoTime() < end) {
                    if (!ops.get(i).run()) {
                        failed = i;
                        break warming;
                    }
                }
            }
        }
        window.opened();
        Timings[] timings = new Timings[k];
        for (int i = 0; i < k; i++) {
            timings[i] = new Timings();
        }
        long slice = nanos(seconds) / slices;
        measuring:
        for (int s = 0; s < slices && failed < 0; s++) {
            for (int i = 0; i < k; i++) {
                Operation op = ops.get(i);
                Timings t = timings[i];
                long end = System.nanoTime() + slice;
                long cpuAtStart = cpu.nanos();
                HostCpu hostAtStart = host.get();
                try {
                    while (t.count < MAX_SAMPLES) {
                        long started = System.nanoTime();
                        if (started >= end) {
                            break;
                        }
                        if (!op.run()) {
                            failed = i;
                            break measuring;
                        }
                        t.add(System.nanoTime() - started);
                        if (op instanceof TwoLegOperation legs) {
                            t.addSecondLeg(legs.lastSecondLegNanos());
                        }
                    }
                } finally {
                    t.addCpu(cpuAtStart, cpu.nanos());
                    t.host = t.host.plus(host.get().minus(hostAtStart));
                }
            }
        }
        window.closed();
        List<Measurement> result = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            result.add(timings[i].measurement(seconds, i == failed ? 1 : 0));
        }
        return result;
    }

    /**
     * The timed calls of one operation of a latency run, in nanoseconds, the CPU time of its slices and the host's CPU
     * time during them.
     */
    private static final class Timings {
        private long[] samples = new long[1 << 12];
        private int count;
        /** The second legs of a {@link TwoLegOperation}'s calls, {@code [0, count)}; else empty. */
        private long[] secondLegs = new long[0];
        private long cpuNanos;
        private boolean cpuUnknown;
        private HostCpu host = HostCpu.ZERO;

        void addCpu(long fromNanos, long toNanos) {
            if (fromNanos < 0 || toNanos < 0) {
                cpuUnknown = true;
            } else {
                cpuNanos += toNanos - fromNanos;
            }
        }

        void add(long nanos) {
            if (count == samples.length) {
                samples = Arrays.copyOf(samples, count * 2);
            }
            samples[count++] = nanos;
        }

        /** The second leg of the call {@link #add} just counted. */
        void addSecondLeg(long nanos) {
            if (secondLegs.length < samples.length) {
                secondLegs = Arrays.copyOf(secondLegs, samples.length);
            }
            secondLegs[count - 1] = nanos;
        }

        Measurement measurement(double seconds, long failures) {
            long[] sorted = Arrays.copyOf(samples, count);
            Arrays.sort(sorted);
            double secondLeg = Double.NaN;
            if (count > 0 && secondLegs.length >= count) {
                long[] legs = Arrays.copyOf(secondLegs, count);
                Arrays.sort(legs);
                secondLeg = percentileMicros(legs, 0.50);
            }
            return new Measurement(count, percentileMicros(sorted, 0.50), percentileMicros(sorted, 0.99),
                    count / seconds, List.of(), Double.NaN, 0, failures,
                    cpuUnknown ? Double.NaN : ProcessCpuClock.microsPerOp(0, cpuNanos, count), host.stolenShare(),
                    secondLeg);
        }
    }

    /**
     * An idle window: runs nothing; waits for the warm-up, then keeps {@code window} open for the measured seconds.
     *
     * @return the window's length and the CPU time this JVM used in it per second of it
     * @throws InterruptedException if interrupted while waiting
     */
    public IdleWindow idle(Window window) throws InterruptedException {
        Thread.sleep(millis(warmup));
        window.opened();
        long cpuAtStart = ProcessCpuClock.nanos();
        long started = System.nanoTime();
        Thread.sleep(millis(seconds));
        window.closed();
        long cpuAtEnd = ProcessCpuClock.nanos();
        double elapsed = (System.nanoTime() - started) / 1e9;
        return new IdleWindow(elapsed, cpuAtStart < 0 || cpuAtEnd < 0 ? Double.NaN : (cpuAtEnd - cpuAtStart) / 1e9 / elapsed);
    }

    /** {@code perNode} threads on each of {@code locks}, no window listener; see {@link #contended(List, int, Window)}. */
    public Measurement contended(List<? extends NodeLock> locks, int perNode) throws Exception {
        return contended(locks, perNode, Window.NONE);
    }

    /**
     * {@code perNode} threads on each of {@code locks} (one lock per node) take and release it in a loop
     * until the measured window closes; the entries inside the window are counted per node and in order.
     *
     * @return count, operations per second over the window, per-node counts, Jain's index, longest run, failures,
     *         CPU per entry
     */
    public Measurement contended(List<? extends NodeLock> locks, int perNode, Window window) throws Exception {
        List<LockPicker> pickers = new ArrayList<>();
        for (NodeLock lock : locks) {
            pickers.add(() -> lock);
        }
        return contendedPicking(pickers, perNode, window);
    }

    /**
     * {@code perNode} threads on each node take and release, in a loop until the measured window closes, the lock
     * their node's picker names for each entry (one picker per node); the entries inside the window are counted
     * per node and in order, as in {@link #contended(List, int, Window)}.
     *
     * @return count, operations per second over the window, per-node counts, Jain's index, longest run, failures,
     *         CPU per entry
     */
    public Measurement contendedPicking(List<? extends LockPicker> pickers, int perNode, Window window)
            throws Exception {
        if (pickers.isEmpty() || perNode < 1) {
            throw new IllegalArgumentException("a contended run needs at least one node and one thread per node, got "
                    + pickers.size() + " nodes and " + perNode + " threads per node");
        }
        int n = pickers.size();
        AtomicInteger phase = new AtomicInteger(); // 0 warm-up, 1 measuring, 2 stop
        AtomicLong failures = new AtomicLong();
        AtomicLong[] counts = new AtomicLong[n];
        // the order of the measured entries by node; written while holding the measured lock, and under
        // the monitor too so that a lock that breaks mutual exclusion cannot corrupt it
        int[] sequence = new int[MAX_SEQUENCE];
        int[] length = new int[1];
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            counts[i] = new AtomicLong();
            LockPicker picker = pickers.get(i);
            int node = i;
            for (int k = 0; k < perNode; k++) {
                Thread w = new Thread(() -> {
                    try {
                        while (phase.get() < 2) {
                            NodeLock lock = picker.next();
                            if (!lock.tryLock(lockTimeout)) {
                                failures.incrementAndGet();
                                stalls.stalled(timedOut());
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
                }, "bench-n" + (i + 1) + "-t" + k);
                w.setDaemon(true);
                workers.add(w);
            }
        }
        workers.forEach(Thread::start);
        Thread.sleep(millis(warmup));
        window.opened();
        long cpuAtStart = cpu.nanos();
        HostCpu hostAtStart = host.get();
        long started = System.nanoTime();
        phase.set(1);
        Thread.sleep(millis(seconds));
        phase.set(2);
        long elapsed = System.nanoTime() - started;
        long cpuAtEnd = cpu.nanos();
        HostCpu hostSpan = host.get().minus(hostAtStart);
        window.closed();
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(lockTimeout + 10));
            if (w.isAlive()) {
                failures.incrementAndGet();
                w.interrupt();
            }
        }
        long[] perNodeCounts = new long[n];
        List<Long> perNodeList = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < n; i++) {
            perNodeCounts[i] = counts[i].get();
            perNodeList.add(perNodeCounts[i]);
            total += perNodeCounts[i];
        }
        long maxRun;
        synchronized (sequence) {
            maxRun = longestRun(sequence, length[0]);
        }
        return new Measurement(total, Double.NaN, Double.NaN, total / (elapsed / 1e9), perNodeList,
                jain(perNodeCounts), maxRun, failures.get(), ProcessCpuClock.microsPerOp(cpuAtStart, cpuAtEnd, total),
                hostSpan.stolenShare(), Double.NaN);
    }

    /**
     * The {@code q} quantile of sorted nanosecond samples, in microseconds: the smallest sample with at
     * least {@code q} of the samples at or below it (nearest rank); NaN when there are none.
     */
    public static double percentileMicros(long[] sortedNanos, double q) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.min(sortedNanos.length - 1, Math.max(0, Math.ceil(q * sortedNanos.length) - 1));
        return sortedNanos[i] / 1e3;
    }

    /**
     * Jain's fairness index of the counts: {@code (sum x)^2 / (n * sum x^2)}, 1 when all are equal,
     * {@code 1/n} when one has everything; NaN when all are 0.
     */
    public static double jain(long[] counts) {
        double total = 0;
        double squares = 0;
        for (long c : counts) {
            total += c;
            squares += (double) c * c;
        }
        return squares == 0 ? Double.NaN : total * total / (counts.length * squares);
    }

    /** The longest run of equal consecutive values in the first {@code length} entries of {@code sequence}. */
    public static long longestRun(int[] sequence, int length) {
        long maxRun = 0;
        long run = 0;
        for (int i = 0; i < length; i++) {
            run = i > 0 && sequence[i] == sequence[i - 1] ? run + 1 : 1;
            maxRun = Math.max(maxRun, run);
        }
        return maxRun;
    }

    private static long nanos(double s) {
        return (long) (s * 1e9);
    }

    private static long millis(double s) {
        return (long) (s * 1e3);
    }
}
