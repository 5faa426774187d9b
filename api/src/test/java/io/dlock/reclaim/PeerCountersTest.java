package io.dlock.reclaim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dlock.NodeId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-member counts, ascending by member whatever order members are first counted in, and a clear per epoch. */
class PeerCountersTest {

    @Test
    void countsPerMemberAscendingWhateverTheOrderMembersCameIn() {
        PeerCounters counters = new PeerCounters();
        for (long member : List.of(7L, 2L, 9L, 2L, 4L, 7L, 1L)) {
            counters.sent(NodeId.of(member));
        }
        counters.received(NodeId.of(4));
        counters.received(NodeId.of(3));
        assertEquals(Map.of(NodeId.of(1), 1L, NodeId.of(2), 2L, NodeId.of(4), 1L, NodeId.of(7), 2L, NodeId.of(9), 1L),
                counters.sent());
        assertEquals(List.of(NodeId.of(1), NodeId.of(2), NodeId.of(4), NodeId.of(7), NodeId.of(9)),
                List.copyOf(counters.sent().keySet()), "ascending");
        assertEquals(Map.of(NodeId.of(3), 1L, NodeId.of(4), 1L), counters.received(), "members with no count left out");
    }

    @Test
    void aClearStartsCountingAgain() {
        PeerCounters counters = new PeerCounters();
        counters.sent(NodeId.of(5));
        counters.received(NodeId.of(6));
        counters.clear();
        assertEquals(Map.of(), counters.sent());
        assertEquals(Map.of(), counters.received());
        counters.received(NodeId.of(2));
        assertEquals(Map.of(NodeId.of(2), 1L), counters.received());
        LockVote vote = counters.atRestVote("orders", 12);
        assertEquals(Map.of(NodeId.of(2), 1L), vote.received());
        assertEquals(Map.of(), vote.sent());
    }
}
