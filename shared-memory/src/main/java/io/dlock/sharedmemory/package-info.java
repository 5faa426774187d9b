/**
 * Mutual exclusion for the threads of one JVM from shared reads and writes alone: the classic software
 * locks of notes S4 &sect;4 (docs/algorithms.md Part C), as {@link java.util.concurrent.locks.Lock}s.
 *
 * <h2>The locks</h2>
 * <table>
 *   <caption>What each lock offers</caption>
 *   <tr><th>Lock</th><th>Threads</th><th>Fairness</th><th>Cost of one uncontended acquisition</th></tr>
 *   <tr><td>{@link io.dlock.sharedmemory.PetersonLock}</td><td>2</td><td>bounded bypass 1</td><td>2 writes, 2 reads</td></tr>
 *   <tr><td>{@link io.dlock.sharedmemory.FilterLock}</td><td>2..64 (fixed)</td>
 *       <td>starvation-free, overtaking unbounded</td><td>O(n<sup>2</sup>) reads</td></tr>
 *   <tr><td>{@link io.dlock.sharedmemory.BakeryLock}</td><td>2..64 (fixed)</td>
 *       <td>first-come-first-served</td><td>O(n) reads</td></tr>
 * </table>
 * All three share one runtime, {@link io.dlock.sharedmemory.SharedMemoryLock}: threads are mapped to the
 * algorithm's process indices (slots) on first use and can give their slot back
 * ({@link io.dlock.sharedmemory.SharedMemoryLock#unregisterCurrentThread()}); the lock is reentrant; waiters
 * spin briefly and then park; {@code lockInterruptibly}, timed {@code tryLock} and conditions work as in
 * {@link java.util.concurrent.locks.ReentrantLock}.
 *
 * <h2>Why these exist</h2>
 * They are for teaching, comparing and verifying the algorithms, not for speed: a
 * {@link java.util.concurrent.locks.ReentrantLock} (one compare-and-set) is faster in every case, as the JMH
 * benchmarks of this module show. What they demonstrate is that mutual exclusion needs only reads and writes
 * &mdash; provided the right ones are ordered. Each algorithm relies on some writes being ordered before later
 * reads of other variables (store-load ordering), which Java's volatile accesses give and acquire/release
 * accesses do not; the jcstress tests of this module include a Peterson lock weakened to acquire/release and
 * show it failing. The other writes are release writes; each lock's implementation notes argue, write by write,
 * why that is enough.
 *
 * <h2>Verification</h2>
 * jcstress tests (two actors) for mutual exclusion under the Java memory model; Lincheck's model checker for
 * three and four threads, which also catches the source notes' filter-lock loop bound; stress tests; and the source notes'
 * flag-only first attempt kept as a test fixture that deadlocks. See this module's README.
 */
package io.dlock.sharedmemory;
