/**
 * Examples to copy, each a runnable program. On the in-memory transport (swap in {@code dlock.transport=jgroups}
 * for a real cluster):
 * <ul>
 *   <li>{@link io.dlock.samples.examples.QuickStart}: the README's quick start, three nodes adding to a shared
 *       total under one lock, with a leader listener;</li>
 *   <li>{@link io.dlock.samples.examples.DropInLockExample}: existing code that guards a resource with a
 *       {@code java.util.concurrent.locks.Lock} keeps its code; only where the {@code Lock} comes from changes
 *       ({@code new ReentrantLock()} becomes {@code dlock.lock("inventory")});</li>
 *   <li>{@link io.dlock.samples.examples.LeaderJobExample}: leader-change callbacks start and stop a scheduled job,
 *       so that only the current leader runs it, and it moves when the leader leaves;</li>
 *   <li>{@link io.dlock.samples.examples.PropertiesConfigExample}: the algorithm comes from a properties file
 *       ({@code dlock-example.properties}, shipped in the jar), so changing it needs no code change;</li>
 *   <li>{@link io.dlock.samples.examples.LeaseExample}: an owner-free hold taken asynchronously with a lease; its
 *       holder hangs, the lease ends the hold, the next node gets the lock, and the fenced store refuses the hung
 *       holder's late write.</li>
 * </ul>
 * Across processes, on JGroups: {@link io.dlock.samples.examples.FencedWriteExample}, a node that writes to a
 * {@link io.dlock.samples.examples.FencedFile} (a fenced store in a file, which {@code dlock check-history} also
 * reads) with its lock's fencing token, so a paused holder's late write is refused.
 * <p>
 * Run one with {@code java -cp samples/target/dlock.jar io.dlock.samples.examples.DropInLockExample}.
 */
package io.dlock.samples.examples;
