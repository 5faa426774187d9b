/**
 * The {@code dlock} command line ({@code java -jar samples/target/dlock.jar}, picocli), built on the
 * deterministic simulator of {@code io.dlock.inmemory.sim} and on the JGroups transport:
 * <ul>
 *   <li>{@code compare}: every mutual-exclusion algorithm at one N: messages per entry against the formula,
 *       synchronization delay, checker;</li>
 *   <li>{@code sweep}: the same over a range of N ({@code 2..256}), with a progress bar on a terminal;</li>
 *   <li>{@code report}: the sweep and the elections as one self-contained HTML file (XChart PNGs embedded,
 *       one chart per algorithm family and per ring order, summary tables);</li>
 *   <li>{@code trace}: every event of one small run, or a Mermaid sequence diagram of it;</li>
 *   <li>{@code elect}: one leader election on the simulator;</li>
 *   <li>{@code node}: a JGroups node taking a lock in a loop;</li>
 *   <li>{@code bench}: latency, throughput, messages per entry and fairness on JGroups and in memory
 *       (the package {@link io.dlock.samples.bench}: options, clusters, floor, baselines, output);</li>
 *   <li>{@code check-history}: judges a history recorded under faults (and the fenced store's file) with the
 *       checker of {@link io.dlock.samples.history}: one holder at a time, fencing tokens in real-time order, no lost
 *       update, availability per fault window.</li>
 * </ul>
 * The commands share option names and types ({@code --nodes}, {@code --algorithm(s)}, {@code --seed},
 * {@code --entries}, {@code --format text|json}), through mixins and converters; a bad value is a picocli usage
 * error: one line naming the option, the value and what is allowed, the usage, exit code 2. {@code Cli} sets the
 * command line up and says how a command is written.
 * The simulator commands enumerate {@link io.dlock.MutexAlgorithm} and {@link io.dlock.ElectionAlgorithm}, so a
 * newly registered algorithm appears in all of them. The package {@link io.dlock.samples.examples} holds the
 * examples to copy.
 */
package io.dlock.samples;
