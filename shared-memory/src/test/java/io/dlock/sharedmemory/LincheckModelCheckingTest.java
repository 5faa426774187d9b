package io.dlock.sharedmemory;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.locks.Lock;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on the real locks, for 2, 3 and 4 threads (jcstress cannot run more actors than this
 * machine has CPUs). Lincheck runs each thread's operation on real threads under a scheduler that switches at
 * every shared-memory access, exploring many interleavings (not all: the search is bounded by the number of
 * invocations), and checks that the results are linearizable with respect to a sequential counter.
 *
 * <p>The operation increments a plain counter under the lock and returns the new value; a sequential run returns
 * 1, 2, 3, ... so two threads in the critical section together show as a repeated value, an
 * {@code AssertionError} from the lock's own ownership check, or a hang (a thread left stuck behind the corrupted
 * state). Waiters are built with {@link #SPINS} checks before parking, so the park/unpark hand-off is explored too.
 *
 * <p>The broken locks of the source notes are caught by {@link LincheckCatchesBrokenLocksTest}, with this class's
 * counter, options and budget.
 *
 * <p>Budget: {@code -Dlincheck.invocations=N} interleavings per test (default {@value #DEFAULT_INVOCATIONS}, about 75 s
 * for this class and 40 s for the broken locks on 2 cores, each in its own test JVM); the full mode of
 * docs/development.md (Longer runs) uses 50000.
 *
 * <p>Gap: with the source notes' loop bound and four threads (SM-6, n = 4) the violating interleaving needs all four threads
 * and many switches; Lincheck did not find it within 20000 invocations, so that case is shown by the fixed schedule
 * of {@link SeedClaimsTest} instead.
 */
class LincheckModelCheckingTest {

    static final int DEFAULT_INVOCATIONS = 3000;
    /** Few spins, so that waiters park under the model checker (see {@link #LOOP_BOUND}). */
    static final int SPINS = Integer.getInteger("lincheck.spins", 2);
    /**
     * Iterations of one wait loop after which Lincheck reports "The execution has hung" (Lincheck's default: 50).
     * Lincheck lets a parked thread return from park spuriously, so a waiter's loop counts one iteration per park,
     * and with four threads a waiter that legitimately waits behind the other three can pass 50: issue 19's
     * version of the locks (fewer, different shared-memory events) met such a false hang in
     * bakeryLock_fourThreads, a schedule in which the two first threads enter and leave while the last two keep
     * waking spuriously. 200 keeps real hangs (the flag-only lock, SM-1) reported, only later.
     */
    static final int LOOP_BOUND = Integer.getInteger("lincheck.loopBound", 200);

    /** One operation: increment a plain counter under the lock. */
    public abstract static class CounterUnderLock {
        private final Lock lock;
        private int counter;

        CounterUnderLock(Lock lock) {
            this.lock = lock;
        }

        @Operation
        public int incrementUnderLock() {
            lock.lock();
            try {
                return ++counter;
            } finally {
                lock.unlock();
            }
        }
    }

    public static final class Peterson extends CounterUnderLock {
        public Peterson() {
            super(new PetersonLock(SPINS));
        }
    }

    public static final class Filter3 extends CounterUnderLock {
        public Filter3() {
            super(new FilterLock(3, SPINS));
        }
    }

    public static final class Filter4 extends CounterUnderLock {
        public Filter4() {
            super(new FilterLock(4, SPINS));
        }
    }

    public static final class Bakery3 extends CounterUnderLock {
        public Bakery3() {
            super(new BakeryLock(3, SPINS));
        }
    }

    public static final class Bakery4 extends CounterUnderLock {
        public Bakery4() {
            super(new BakeryLock(4, SPINS));
        }
    }

    public static final class SeedBoundFilter3 extends CounterUnderLock {
        public SeedBoundFilter3() {
            super(new SeedLoopBoundFilterLock(3, SPINS));
        }
    }

    public static final class MixedConvention extends CounterUnderLock {
        public MixedConvention() {
            super(new MixedConventionPetersonLock(SPINS));
        }
    }

    public static final class TurnBeforeFlag extends CounterUnderLock {
        public TurnBeforeFlag() {
            super(new TurnBeforeFlagPetersonLock(SPINS));
        }
    }

    public static final class FlagOnly extends CounterUnderLock {
        public FlagOnly() {
            super(new FlagOnlyLock(SPINS));
        }
    }

    static void check(Class<? extends CounterUnderLock> test, int threads, int operationsPerThread) {
        new ModelCheckingOptions()
                .threads(threads)
                .actorsPerThread(operationsPerThread)
                .actorsBefore(0)
                .actorsAfter(0)
                .iterations(1) // a single operation type: every scenario of this shape is the same scenario
                .invocationsPerIteration(Integer.getInteger("lincheck.invocations", DEFAULT_INVOCATIONS))
                .loopBound(LOOP_BOUND)
                // The slot registry and the owner bookkeeping are not part of the algorithm: treat their methods as
                // single steps so that the search spends its budget on the algorithm's own reads and writes.
                .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(ThreadSlots.class.getName(), Ownership.class.getName())
                        .allMethods().treatAsAtomic())
                .check(test);
    }

    static void assertCaught(Class<? extends CounterUnderLock> test, int threads, int operationsPerThread,
                                     String expectedInReport) {
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class,
                () -> check(test, threads, operationsPerThread));
        assertTrue(error.getMessage().contains(expectedInReport),
                () -> "expected the report to contain '" + expectedInReport + "':\n" + error.getMessage());
    }

    /** SM-2: Peterson's lock, two threads entering twice each: mutual exclusion, no deadlock. */
    @Test
    void peterson_twoThreadsTwice_isLinearizable() {
        check(Peterson.class, 2, 2);
    }

    /** SM-5: the corrected filter lock (levels 1..n-1) for n = 3. */
    @Test
    void filterLock_threeThreads_isLinearizable() {
        check(Filter3.class, 3, 1);
    }

    /** SM-5: the corrected filter lock (levels 1..n-1) for n = 4. */
    @Test
    void filterLock_fourThreads_isLinearizable() {
        check(Filter4.class, 4, 1);
    }

    /** The bakery lock for 3 threads. */
    @Test
    void bakeryLock_threeThreads_isLinearizable() {
        check(Bakery3.class, 3, 1);
    }

    /** The bakery lock for 4 threads. */
    @Test
    void bakeryLock_fourThreads_isLinearizable() {
        check(Bakery4.class, 4, 1);
    }
}
