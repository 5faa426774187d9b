package io.dlock.bench;

import java.lang.management.ManagementFactory;

/**
 * The CPU time this JVM has used so far, every thread together: in a run whose nodes all live in this JVM, the
 * whole cluster's work (protocol, transport, the kernel's share of their system calls), plus the JIT and the
 * garbage collector. Unlike a latency or a throughput, a CPU time per operation does not depend on how long the
 * threads waited to be woken up, so it stays comparable on a machine whose wake-ups are slow or uneven.
 */
final class ProcessCpuClock {

    private ProcessCpuClock() {
    }

    /** Process CPU time in nanoseconds, or -1 if this JVM does not report it. */
    static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /**
     * CPU microseconds per operation between two readings of {@link #nanos}; NaN when either reading is unknown
     * or there was no operation.
     */
    static double microsPerOp(long fromNanos, long toNanos, long ops) {
        if (fromNanos < 0 || toNanos < 0 || ops <= 0) {
            return Double.NaN;
        }
        return (toNanos - fromNanos) / 1e3 / ops;
    }
}
