/**
 * Benchmark-only baseline (issue 19): the three locks and their runtime exactly as they were before issue 19
 * (commit 4fb04e6, every algorithm access volatile, volatile owner), copied with only the package changed, so that
 * one JMH run measures "before" and "after" side by side with {@code ReentrantLock}. Never used outside the
 * benchmarks; the {@code jmh} profile compiles it into {@code target/jmh-build} only.
 */
package io.dlock.sharedmemory.bench.before;
