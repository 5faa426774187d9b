package io.dlock.sharedmemory.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.dlock.sharedmemory.FilterLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** {@link FilterLock} gives mutual exclusion under the Java memory model: two actors never both report 1. */
@JCStressTest
@Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "One after the other")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Both in the critical section: both read counter 0")
@Outcome(expect = FORBIDDEN, desc = "Both in the critical section: an unlock found the other actor as owner (-1)")
@State
public class FilterLockMutexTest extends TwoActorMutex {

    public FilterLockMutexTest() {
        super(new FilterLock(2));
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
