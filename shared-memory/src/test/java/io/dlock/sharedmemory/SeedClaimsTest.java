package io.dlock.sharedmemory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docs/algorithms.md Part G "C Shared memory" (SM-1 .. SM-6), replayed deterministically: a single test thread plays the
 * processes by calling the algorithm's steps on the real lock objects &mdash; {@code enterDoorway(i)},
 * {@code mustWait(i)}, {@code passStage(i)}, {@code exit(i)} &mdash; in a chosen interleaving. A step here is one
 * hook call (several shared accesses), coarser than docs/algorithms.md's one-access steps, so the interleavings that need a
 * switch inside a doorway (SM-4) are left to Lincheck, which switches at every access
 * ({@link LincheckModelCheckingTest} covers SM-1 .. SM-5 and SM-6 for n = 3 too, by search rather than by a fixed
 * schedule).
 */
@Timeout(60)
class SeedClaimsTest {

    /** Runs process {@code i} forward until it must wait (false) or may enter the critical section (true). */
    private static boolean advance(SharedMemoryLock lock, int i) {
        while (!lock.mustWait(i)) {
            if (lock.passStage(i)) {
                return true;
            }
        }
        return false;
    }

    /** SM-1: flag-only lock: both raise their flags, then each waits for the other's, which only it could lower. */
    @Test
    void sm1_flagOnly_bothFlagsUp_deadlocks() {
        FlagOnlyLock lock = new FlagOnlyLock(0);
        lock.enterDoorway(0);
        lock.enterDoorway(1);
        assertFalse(advance(lock, 0));
        assertFalse(advance(lock, 1));
        // Neither can reach exit(), the only step that lowers a flag: the state is a deadlock.
        assertTrue(lock.mustWait(0) && lock.mustWait(1));
    }

    /** SM-1 on a real thread: behind process 1's raised flag it parks, and process 1 then waits for it: deadlock. */
    @Test
    void sm1_flagOnly_realThreadAndProcess1WaitForEachOther() throws Exception {
        FlagOnlyLock lock = new FlagOnlyLock(0);
        lock.enterDoorway(1); // "process 1" raised its flag and will test flag[0] next
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        Thread thread0 = new Thread(() -> { // takes slot 0
            try {
                lock.lockInterruptibly();
                interrupted.complete(false);
            } catch (InterruptedException e) {
                interrupted.complete(true);
            }
        }, "process0");
        thread0.start();
        while (thread0.getState() != Thread.State.WAITING) { // parked: it will not look again unless woken
            Thread.onSpinWait();
        }
        assertTrue(lock.mustWait(1), "process 1 waits for process 0's flag");
        assertFalse(lock.isLocked(), "and nobody holds the lock: a deadlock");
        thread0.interrupt(); // the only way out for a real thread
        assertTrue(interrupted.get(20, TimeUnit.SECONDS));
        assertFalse(lock.mustWait(1), "the interrupted waiter withdrew its flag");
    }

    /** SM-1 contrast / SM-2: Peterson's lock with both doorways done lets exactly the first writer of turn in. */
    @Test
    void sm2_peterson_bothDoorwaysDone_exactlyOneProceeds() {
        PetersonLock lock = new PetersonLock(0);
        lock.enterDoorway(0);
        lock.enterDoorway(1); // the last writer of turn is the victim
        assertTrue(advance(lock, 0));
        assertFalse(advance(lock, 1));
        lock.exit(0);
        assertTrue(advance(lock, 1));
    }

    /** SM-2: bounded bypass 1: once 0 has written turn, 1 enters at most once before 0. */
    @Test
    void sm2_peterson_boundedBypassOne() {
        PetersonLock lock = new PetersonLock(0);
        lock.enterDoorway(1);
        lock.enterDoorway(0); // 0 wrote turn last: 0 waits
        assertFalse(advance(lock, 0));
        assertTrue(advance(lock, 1)); // the one bypass
        lock.exit(1);
        lock.enterDoorway(1); // 1 comes back at once ...
        assertFalse(advance(lock, 1)); // ... and now waits,
        assertTrue(advance(lock, 0)); // ... while 0 goes in.
    }

    /** SM-3: mixed conventions (turn = j, wait while turn == i): both enter. */
    @Test
    void sm3_mixedConvention_bothEnter() {
        MixedConventionPetersonLock lock = new MixedConventionPetersonLock(0);
        lock.enterDoorway(0); // flag[0] = 1, turn = 1
        assertTrue(advance(lock, 0)); // flag[1] == 0: 0 enters
        lock.enterDoorway(1); // flag[1] = 1, turn = 0
        assertTrue(advance(lock, 1)); // waits only while turn == 1: 1 enters too
    }

    /** SM-4 at this granularity: the swapped doorway is only wrong inside the doorway; here it still excludes. */
    @Test
    void sm4_turnBeforeFlag_needsASwitchInsideTheDoorway() {
        TurnBeforeFlagPetersonLock lock = new TurnBeforeFlagPetersonLock(0);
        lock.enterDoorway(0);
        lock.enterDoorway(1);
        assertTrue(advance(lock, 0));
        assertFalse(advance(lock, 1)); // see LincheckModelCheckingTest.turnBeforeFlagPeterson_isCaught
    }

    /** SM-5 and SM-6 for n = 3: the same schedule puts two threads in with the source notes' bound, one with the fix. */
    @Test
    void sm5_sm6_threeThreads_seedBoundAdmitsTwo_correctBoundAdmitsOne() {
        assertTrue(twoEnterWithSchedule(new SeedLoopBoundFilterLock(3, 0), 3));
        assertFalse(twoEnterWithSchedule(new FilterLock(3, 0), 3));
    }

    /** SM-5 and SM-6 for n = 4. */
    @Test
    void sm5_sm6_fourThreads_seedBoundAdmitsTwo_correctBoundAdmitsOne() {
        assertTrue(twoEnterWithSchedule(new SeedLoopBoundFilterLock(4, 0), 4));
        assertFalse(twoEnterWithSchedule(new FilterLock(4, 0), 4));
    }

    /**
     * Process 0 runs into the critical section alone. Then processes 1..n-1 arrive one by one; each arrival at
     * level 1 releases the previous victim of level 1, which climbs one level and in turn releases the victim there.
     * With levels 1..n-2 (the source notes) process 1 ends up passing the last level while 0 is still inside; with levels
     * 1..n-1 it meets one more level, where it is the victim and 0 is above it.
     *
     * @return whether process 1 entered while process 0 was in the critical section
     */
    private static boolean twoEnterWithSchedule(SharedMemoryLock lock, int n) {
        lock.enterDoorway(0);
        assertTrue(advance(lock, 0), "alone, process 0 enters");
        boolean secondInside = false;
        for (int arriving = 1; arriving < n; arriving++) {
            lock.enterDoorway(arriving);
            // Let everyone who arrived earlier move as far as they can.
            for (int earlier = arriving - 1; earlier >= 1; earlier--) {
                secondInside |= advance(lock, earlier);
            }
            secondInside |= advance(lock, arriving);
        }
        return secondInside;
    }

    /** SM-6 for n = 2: the source notes' loop runs past the last level and indexes turn out of bounds; the lock is left clean. */
    @Test
    void sm6_twoThreads_seedLoopNeverEnds_indexOutOfBounds() {
        SeedLoopBoundFilterLock lock = new SeedLoopBoundFilterLock(2, 0);
        assertThrows(IndexOutOfBoundsException.class, lock::lock);
        assertFalse(lock.isLocked());
        assertTrue(lock.stateAtRest(0), "the runtime withdrew the failed attempt");
    }
}
