package io.dlock.bench;

/**
 * The CPU time a measured system has used so far, in nanoseconds, read at the start and the end of a measured window
 * ({@link Measurement#cpuUsPerOp}). {@link #PROCESS} is this JVM's, every thread together: enough where every node
 * lives in this JVM, as dlock's do. A system with servers in processes of their own (a redis-server, etcd members)
 * adds theirs with {@link #plus}, so that its CPU per operation counts the servers' work too.
 */
@FunctionalInterface
public interface CpuClock {

    /** This JVM's CPU time, every thread together; -1 if the JVM does not report it. */
    CpuClock PROCESS = ProcessCpuClock::nanos;

    /**
     * The CPU time used so far.
     *
     * @return nanoseconds, or a negative value if it is not known (the figure of that window is then NaN)
     */
    long nanos();

    /** This clock and {@code other} added up; unknown (-1) when either is. */
    default CpuClock plus(CpuClock other) {
        return () -> {
            long a = nanos();
            long b = other.nanos();
            return a < 0 || b < 0 ? -1 : a + b;
        };
    }
}
