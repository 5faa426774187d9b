package io.dlock.sharedmemory.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.dlock.sharedmemory.FilterLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link FilterLock} with three slots, used by two actors: the code path of the n-thread locks (the volatile owner
 * handoff between owners, and two levels climbed with release stores of the level) under jcstress, which runs at
 * most as many actors as the machine has CPUs (2 here). Two actors never both report 1.
 */
@JCStressTest
@Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "One after the other")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Both in the critical section: both read counter 0")
@Outcome(expect = FORBIDDEN, desc = "Both in the critical section: an unlock found the other actor as owner (-1)")
@State
public class FilterLockThreeSlotsMutexTest extends TwoActorMutex {

    public FilterLockThreeSlotsMutexTest() {
        super(new FilterLock(3));
    }

    @Actor
    public void actor1(II_Result r) {
        first(r);
    }

    @Actor
    public void actor2(II_Result r) {
        second(r);
    }
}
