package io.dlock.sharedmemory.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.dlock.sharedmemory.AcquireReleasePetersonLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The Peterson lock weakened to acquire/release ({@link AcquireReleasePetersonLock}) breaks mutual exclusion. The
 * outcomes are graded exactly as for {@link PetersonLockMutexTest}, so jcstress reports this test as FAILED; the
 * {@link ExpectedToBeCaught} marker makes {@link JcstressGate} require that failure.
 */
@JCStressTest
@Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "One after the other")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Both in the critical section: both read counter 0")
@Outcome(expect = FORBIDDEN, desc = "Both in the critical section: an unlock found the other actor as owner (-1)")
@State
@ExpectedToBeCaught("store-load reordering of flag[i] = 1 and the read of flag[j] lets both threads in")
public class AcquireReleasePetersonTest extends TwoActorMutex {

    public AcquireReleasePetersonTest() {
        super(new AcquireReleasePetersonLock());
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
