package io.dlock.bench;

import java.util.List;

/**
 * What one measured run of {@link BenchHarness} found. Figures a run does not measure are NaN:
 * a latency run has no Jain's index, a contended run has no percentiles.
 *
 * @param count     operations in the measured window (lock+unlock pairs, or timed operations)
 * @param p50Us     median latency of one operation, microseconds
 * @param p99Us     99th percentile latency of one operation, microseconds
 * @param opsPerSec operations per second over the measured window (all nodes together)
 * @param perNode   operations per node in the measured window (contended runs; empty for latency runs)
 * @param jain      Jain's fairness index over {@code perNode} (1 = perfectly even, 1/n = one node only)
 * @param maxRun    the longest run of consecutive entries by one node (contended runs; 0 for latency runs)
 * @param failures  lock attempts that timed out or threw, and threads that did not stop in time
 * @param cpuUsPerOp CPU time in the measured window per operation, microseconds, from the harness's {@link CpuClock}:
 *                  by default the whole JVM's (every thread: all nodes living in this JVM, the transport, JIT and
 *                  GC), plus its servers' for a system that has servers of its own; NaN if the clock does not
 *                  report it. In an interleaved latency run, the CPU time of this operation's own slices
 * @param stolenShare the share of the host's CPU time in the measured window that the hypervisor gave to other guests
 *                  ({@link HostCpu}), 0..1; NaN where the host does not report it. In an interleaved latency run, that
 *                  of this operation's own slices
 * @param unlockP50Us median time of the unlock alone in a latency run of lock+unlock
 *                  ({@link BenchHarness.TwoLegOperation}), microseconds: about nothing for a lock whose unlock only
 *                  sends its release, a round trip for one that waits for the release to be confirmed; NaN in other runs
 */
public record Measurement(long count, double p50Us, double p99Us, double opsPerSec, List<Long> perNode, double jain,
                          long maxRun, long failures, double cpuUsPerOp, double stolenShare, double unlockP50Us) {

    /** Copies {@code perNode}, so that the record is immutable. */
    public Measurement {
        perNode = List.copyOf(perNode);
    }
}
