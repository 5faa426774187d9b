/**
 * The in-process network. {@link io.dlock.inmemory.InMemoryTransport} is the real-time transport
 * ({@code dlock.transport=inmemory}): nodes in one JVM, each a {@link io.dlock.LockService} with its own
 * threads, messages passed through in-memory queues; it is the embedded default and what the demos
 * use. The deterministic simulator, with virtual time and seeded faults, is in
 * {@link io.dlock.inmemory.sim}.
 */
package io.dlock.inmemory;
