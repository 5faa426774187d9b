/**
 * The measuring loops of {@code dlock bench}, in one place for dlock and for the benchmark baselines (the peers:
 * JGroups 5.3.24 {@code CENTRAL_LOCK2}, Hazelcast, Redisson, Curator, etcd), so that every lock is measured the same
 * way.
 *
 * <p>{@link io.dlock.bench.BenchHarness} runs two kinds of runs over {@link io.dlock.bench.NodeLock}s:
 * uncontended latency (one thread, warm-up, then every lock+unlock timed; median and p99 from the
 * sorted samples) and contended throughput (T threads on each of N nodes, on one lock per node or on the
 * lock a {@link io.dlock.bench.LockPicker} names for each entry; operations per second, per-node counts,
 * Jain's index, longest run of one node). The CPU time per operation is read from a {@link io.dlock.bench.CpuClock}:
 * this JVM's by default, plus a peer's server processes where it has some. Each returns a
 * {@link io.dlock.bench.Measurement}; callers format it (dlock's rows, the baselines' JSON lines).
 * Every wait is bounded by the lock timeout. This module has no dependencies, so the baselines can
 * use it on their own class path without dlock's JGroups.
 */
package io.dlock.bench;
