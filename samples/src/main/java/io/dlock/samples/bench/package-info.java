/**
 * {@code dlock bench}: the command ({@link io.dlock.samples.bench.BenchCommand}) and what only it uses: its options,
 * the dlock clusters it measures, the JGroups floor, the baselines run in their own JVMs, the per-key workload
 * with the heap it retains ({@code HeapUsage}, {@code UsedKeys}), the message counts of a measured window
 * ({@code MessageWindow}), the rows and their text and JSON output, and the goals judged on them. The measuring
 * loops themselves are {@code io.dlock.bench.BenchHarness} (module {@code dlock-bench-harness}), shared with the
 * baselines. The options and converters every command shares stay in {@code io.dlock.samples}.
 */
package io.dlock.samples.bench;
