package io.dlock.sharedmemory;

import static io.dlock.sharedmemory.LincheckModelCheckingTest.assertCaught;

import io.dlock.sharedmemory.LincheckModelCheckingTest.FlagOnly;
import io.dlock.sharedmemory.LincheckModelCheckingTest.MixedConvention;
import io.dlock.sharedmemory.LincheckModelCheckingTest.SeedBoundFilter3;
import io.dlock.sharedmemory.LincheckModelCheckingTest.TurnBeforeFlag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on the broken locks of the source notes (SM-1, SM-3, SM-4, SM-6 for n = 3): each is caught,
 * with the same counter, options and budget as the correct locks of {@link LincheckModelCheckingTest}. A class of
 * its own so that the two share the module's test JVMs.
 */
class LincheckCatchesBrokenLocksTest {

    /** SM-6: the source notes' loop bound (levels 1..n-2) lets two of three threads in together. */
    @Test
    void seedLoopBoundFilterLock_threeThreads_isCaught() {
        assertCaught(SeedBoundFilter3.class, 3, 1, "mutual exclusion violated");
    }

    /** SM-3: Peterson with mixed conventions ({@code turn = j}, wait while {@code turn == i}) is caught. */
    @Test
    void mixedConventionPeterson_isCaught() {
        assertCaught(MixedConvention.class, 2, 1, "mutual exclusion violated");
    }

    /** SM-4: Peterson writing {@code turn} before {@code flag[i]} is caught. */
    @Test
    void turnBeforeFlagPeterson_isCaught() {
        assertCaught(TurnBeforeFlag.class, 2, 1, "mutual exclusion violated");
    }

    /** SM-1: the flag-only lock: Lincheck finds the interleaving in which both threads wait forever. */
    @Test
    void flagOnlyLock_deadlockIsFound() {
        assertCaught(FlagOnly.class, 2, 1, "The execution has hung");
    }
}
