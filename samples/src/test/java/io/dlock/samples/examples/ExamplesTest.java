package io.dlock.samples.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The examples run to completion on the in-memory transport and do what their Javadoc says. */
@Timeout(60)
class ExamplesTest {

    /** The dropped-in distributed Lock sells every item exactly once across three nodes and six threads. */
    @Test
    void dropInLock_sellsEveryItemOnce() throws Exception {
        assertEquals(60, DropInLockExample.run(MutexAlgorithm.RICART_AGRAWALA, 60));
        assertEquals(60, DropInLockExample.run(MutexAlgorithm.SUZUKI_KASAMI, 60));
    }

    /** Two producers and a consumer on three nodes pass every item through a buffer of three, once each. */
    @Test
    void boundedBuffer_passesEveryItemOnce() throws Exception {
        assertEquals(20, BoundedBufferExample.run(MutexAlgorithm.RICART_AGRAWALA, 10).size());
        assertEquals(20, BoundedBufferExample.run(MutexAlgorithm.SUZUKI_KASAMI, 10).size());
        assertEquals(20, BoundedBufferExample.run(MutexAlgorithm.CENTRALIZED, 10).size());
    }

    /** The leader runs the job; when it leaves, the next leader runs it; the third node never does. */
    @Test
    void leaderJob_movesWithTheLeader() throws Exception {
        Map<String, Integer> runs = LeaderJobExample.run(400);
        assertTrue(runs.getOrDefault("n2", 0) > 0, runs::toString);
        assertTrue(runs.getOrDefault("n1", 0) > 0, runs::toString);
        assertEquals(0, runs.getOrDefault("n0", 0), runs::toString);
    }

    /**
     * A hold whose holder hangs ends with its lease: the holder is told, the other node gets the lock and writes, the
     * hung holder's late write is refused by the fenced store, and its release reports the loss.
     */
    @Test
    void lease_endsAHungHoldAndFencingRefusesItsLateWrite() throws Exception {
        for (MutexAlgorithm algorithm : List.of(MutexAlgorithm.RICART_AGRAWALA, MutexAlgorithm.SUZUKI_KASAMI)) {
            List<String> story = LeaseExample.run(algorithm, Duration.ofMillis(500));
            assertEquals(6, story.size(), story::toString);
            assertTrue(story.get(0).startsWith("node 1 wrote with token "), story::toString);
            assertEquals("node 1 was told: LEASE_EXPIRED", story.get(1));
            assertTrue(story.get(2).startsWith("node 2 wrote with token "), story::toString);
            assertEquals("node 1's late write was refused", story.get(3));
            assertEquals("node 1's release: ownership lost", story.get(4));
            assertEquals("store: node 2's report", story.get(5));
        }
    }

    /** The shipped properties file selects suzuki-kasami, and three nodes run with it. */
    @Test
    void propertiesConfig_choosesTheAlgorithm() throws Exception {
        DlockConfig config = PropertiesConfigExample.load(null);
        assertEquals(MutexAlgorithm.SUZUKI_KASAMI, config.mutex());
        assertTrue(PropertiesConfigExample.run(config, 2) > 0);
    }
}
