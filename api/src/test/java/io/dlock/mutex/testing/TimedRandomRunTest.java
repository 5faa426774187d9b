package io.dlock.mutex.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.ctta.CttaDefinition;
import io.dlock.mutex.ctta.CttaMessage;
import io.dlock.protocol.ProtocolOptions;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The harness itself: a run that leaves a request waiting is not reported as complete. */
class TimedRandomRunTest {

    /**
     * CTTA without REGENERATE loses its token and never grants again: the run ends with nothing left
     * to do, but {@link TimedRandomRun#run} says false and the cluster records ME3 (it said true).
     */
    @Test
    void runWithARequestNeverGrantedIsNotComplete() {
        Cluster<CttaMessage> c = new Cluster<>(new CttaDefinition(), 3,
                ProtocolOptions.NONE.with(CttaDefinition.REGENERATE, "false"));
        boolean done = TimedRandomRun.run(c, new Random(1), 3, 0.0, CttaMessage.Token.class, 1.0, 10_000);
        assertFalse(done, "the token was lost and nothing regenerates it: " + c.entries());
        assertTrue(c.violations().stream().anyMatch(v -> v.startsWith("ME3")), c.violations().toString());
    }

    /** The same run with REGENERATE and no loss grants all nine requests and says so. */
    @Test
    void runThatGrantsEveryRequestIsComplete() {
        Cluster<CttaMessage> c = new Cluster<>(new CttaDefinition(), 3);
        assertTrue(TimedRandomRun.run(c, new Random(1), 3, 0.0, null, 0.0, 10_000));
        assertTrue(c.violations().isEmpty() && c.entries().size() == 9, c.violations() + " " + c.entries());
    }
}
