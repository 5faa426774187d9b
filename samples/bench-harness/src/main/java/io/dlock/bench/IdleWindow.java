package io.dlock.bench;

/**
 * What an idle window of {@link BenchHarness#idle} found: how long it lasted and the CPU this JVM used meanwhile.
 *
 * @param seconds  the window's length, seconds
 * @param cpuCores CPU time of the whole JVM in the window per second of it (every thread: all nodes living in this
 *                 JVM, the transport, JIT and GC; 1 = one core busy); NaN if the JVM does not report it
 */
public record IdleWindow(double seconds, double cpuCores) {
}
