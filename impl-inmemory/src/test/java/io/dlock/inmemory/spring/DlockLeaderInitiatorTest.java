package io.dlock.inmemory.spring;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.inmemory.InMemoryCluster;
import io.dlock.spring.integration.DlockLeaderInitiator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;

/**
 * {@link DlockLeaderInitiator} on 3 in-memory nodes: one candidate granted (the highest node id, as dlock elects),
 * leadership moving when the leader's service closes, Spring's leader events published, stop revoking, and yield.
 */
@Timeout(60)
class DlockLeaderInitiatorTest {

    private InMemoryCluster cluster;
    private final List<RecordingCandidate> candidates = new ArrayList<>();
    private final List<DlockLeaderInitiator> initiators = new ArrayList<>();
    private final List<Queue<Object>> events = new ArrayList<>();

    @BeforeEach
    void start() {
        cluster = new InMemoryCluster(3, MutexAlgorithm.CENTRALIZED);
        for (int i = 0; i < 3; i++) {
            RecordingCandidate candidate = new RecordingCandidate("node-" + i);
            DlockLeaderInitiator initiator = new DlockLeaderInitiator(cluster.node(i), "reports", candidate);
            Queue<Object> published = new ConcurrentLinkedQueue<>();
            initiator.setApplicationEventPublisher(published::add);
            candidates.add(candidate);
            initiators.add(initiator);
            events.add(published);
            initiator.start();
        }
    }

    @AfterEach
    void stop() {
        initiators.forEach(DlockLeaderInitiator::stop);
        cluster.close();
    }

    /** Node 2 (the highest id) is granted, alone, with an OnGrantedEvent carrying the role; the others hear nothing. */
    @Test
    void oneLeader_granted_withEvent() {
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.get(2).leads());
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> !candidates.get(0).leads() && !candidates.get(1).leads());
        assertTrue(initiators.get(2).getContext().isLeader());
        assertFalse(initiators.get(0).getContext().isLeader());
        assertEquals("reports", initiators.get(2).getContext().getRole());
        await().atMost(Duration.ofSeconds(5)).until(() -> !events.get(2).isEmpty());
        OnGrantedEvent granted = assertInstanceOf(OnGrantedEvent.class, events.get(2).peek());
        assertEquals("reports", granted.getRole());
        assertSame(initiators.get(2), granted.getSource());
        assertTrue(events.get(0).isEmpty() && events.get(1).isEmpty());
    }

    /** When the leader's service closes, node 1 is granted and publishes OnGrantedEvent; node 0 stays out. */
    @Test
    void leaderServiceCloses_leadershipMoves() {
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.get(2).leads());
        initiators.get(2).stop();
        cluster.node(2).close();
        await().atMost(Duration.ofSeconds(20)).until(() -> candidates.get(1).leads());
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get(1).stream().anyMatch(OnGrantedEvent.class::isInstance));
        assertFalse(candidates.get(0).leads());
        // stop() revoked the old leader's candidate, with an event
        assertEquals(1, candidates.get(2).revoked.get());
        assertTrue(events.get(2).stream().anyMatch(OnRevokedEvent.class::isInstance));
    }

    /** yield() revokes the leader's candidate and, dlock electing the same highest id again, grants it again. */
    @Test
    void yield_revokesThenGrantsAgain() {
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.get(2).leads());
        initiators.get(2).getContext().yield();
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.get(2).revoked.get() == 1
                && candidates.get(2).granted.get() == 2 && events.get(2).size() == 3);
        assertTrue(candidates.get(2).leads());
        List<Object> kinds = events.get(2).stream().map(e -> (Object) e.getClass()).toList();
        assertEquals(List.<Object>of(OnGrantedEvent.class, OnRevokedEvent.class, OnGrantedEvent.class), kinds);
        assertFalse(candidates.get(0).leads() || candidates.get(1).leads());
    }

    /** A group name dlock cannot use is refused when the initiator is made. */
    @Test
    void badGroup_refused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DlockLeaderInitiator(cluster.node(0), "", new RecordingCandidate("x")));
        assertTrue(e.getMessage().contains("1 to 200"), e.getMessage());
    }
}
