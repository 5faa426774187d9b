package io.dlock.reclaim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The reclamation protocol on its own, over a hand-driven network of N members. */
class ReclamationTest {

    /** One member: its protocol, and what the port saw. */
    private static final class Member {
        final NodeId id;
        Reclamation protocol;
        long epoch;
        /** Per lock: the vote this member gives (default: at rest, no traffic). */
        final Map<String, LockVote> votes = new HashMap<>();
        final Set<String> frozen = new HashSet<>();
        final Set<String> dropped = new HashSet<>();
        final Set<String> thawed = new HashSet<>();
        long floor;

        Member(NodeId id) {
            this.id = id;
        }
    }

    /** A message in flight, with the sender's epoch. */
    private record InFlight(NodeId from, NodeId to, long epoch, ReclaimMessage message) {
    }

    private final Map<NodeId, Member> members = new HashMap<>();
    private final Deque<InFlight> network = new ArrayDeque<>();
    private int sent;

    private void cluster(int n) {
        View view = View.ofRange(1, n);
        for (NodeId id : view.members()) {
            Member m = new Member(id);
            m.epoch = 1;
            m.protocol = new Reclamation(id, view, port(m));
            members.put(id, m);
        }
    }

    private Reclamation.Port port(Member m) {
        return new Reclamation.Port() {
            @Override
            public void send(NodeId to, ReclaimMessage message) {
                assertFalse(to.equals(m.id), "a member never sends to itself");
                network.add(new InFlight(m.id, to, m.epoch, roundTrip(message)));
                sent++;
            }

            @Override
            public void freeze(RoundId round, List<String> names) {
                List<LockVote> votes = new ArrayList<>();
                for (String name : names) {
                    LockVote vote = m.votes.getOrDefault(name, LockVote.absent(name));
                    if (vote.atRest()) {
                        assertTrue(m.frozen.add(name), name + " frozen twice on " + m.id);
                    }
                    votes.add(vote);
                }
                m.protocol.onLocalVotes(round, votes);
            }

            @Override
            public void commit(List<String> names, long floor) {
                for (String name : names) {
                    assertTrue(m.frozen.remove(name), name + " committed but not frozen on " + m.id);
                    m.dropped.add(name);
                }
                m.floor = Math.max(m.floor, floor);
            }

            @Override
            public void thaw(List<String> names) {
                for (String name : names) {
                    assertTrue(m.frozen.remove(name), name + " thawed but not frozen on " + m.id);
                    m.thawed.add(name);
                }
            }
        };
    }

    /** Every message goes through the codec, so the codec is tested by every scenario. */
    private static ReclaimMessage roundTrip(ReclaimMessage message) {
        ReclaimCodec codec = new ReclaimCodec();
        WireWriter out = new WireWriter();
        codec.encode(message, out);
        WireReader in = new WireReader(out.toByteArray());
        ReclaimMessage decoded = codec.decode(in);
        in.expectEnd();
        assertEquals(message, decoded);
        return decoded;
    }

    /** Delivers messages that match, in order, until none is left that matches; older epochs are dropped. */
    private void deliver(Predicate<InFlight> which) {
        boolean progress = true;
        while (progress) {
            progress = false;
            for (InFlight f : List.copyOf(network)) {
                Member to = members.get(f.to());
                if (!which.test(f) || to == null || f.epoch() > to.epoch) {
                    continue;
                }
                network.remove(f);
                progress = true;
                if (f.epoch() == to.epoch) {
                    to.protocol.onMessage(f.from(), f.message());
                }
            }
        }
    }

    private void deliverAll() {
        deliver(f -> true);
    }

    private void install(View view) {
        for (NodeId id : view.members()) {
            Member m = members.get(id);
            m.epoch = view.epoch();
            m.protocol.onView(view);
        }
    }

    private Member member(long id) {
        return members.get(NodeId.of(id));
    }

    private static LockVote traffic(String name, long fence, Map<NodeId, Long> sent, Map<NodeId, Long> received) {
        return new LockVote(name, true, fence, sent, received);
    }

    @Test
    void idleLocksAreDroppedEverywhereWithTheHighestFenceAsFloor() {
        cluster(3);
        member(1).votes.put("a", traffic("a", 7, Map.of(NodeId.of(0), 2L), Map.of(NodeId.of(2), 1L)));
        member(0).votes.put("a", traffic("a", 9, Map.of(), Map.of(NodeId.of(1), 2L)));
        member(2).votes.put("a", traffic("a", 3, Map.of(NodeId.of(1), 1L), Map.of()));
        member(2).protocol.nominate(List.of("a", "b"));
        deliverAll();
        for (Member m : members.values()) {
            assertEquals(Set.of("a", "b"), m.dropped, "dropped on " + m.id);
            assertTrue(m.frozen.isEmpty());
            assertEquals(9, m.floor, "floor on " + m.id);
            assertEquals(0, m.protocol.openRounds());
        }
        assertEquals(1 + 3 * 2, sent, "NOMINATE + 3(N-1)");
    }

    @Test
    void aLockBusyOnOneMemberIsKeptEverywhereAndTheOthersGo() {
        cluster(3);
        member(2).votes.put("busy", LockVote.busy("busy"));
        member(0).protocol.nominate(List.of("busy", "idle"));
        deliverAll();
        for (Member m : members.values()) {
            assertEquals(Set.of("idle"), m.dropped, "dropped on " + m.id);
            assertEquals(m.id.equals(NodeId.of(2)) ? Set.of() : Set.of("busy"), m.thawed, "thawed on " + m.id);
            assertTrue(m.frozen.isEmpty());
        }
        assertEquals(3 * 2, sent, "the steward nominates without a message");
    }

    @Test
    void aMessageInFlightKeepsTheLock() {
        cluster(3);
        // 0 sent two messages to 1, which has received one so far
        member(0).votes.put("x", traffic("x", 0, Map.of(NodeId.of(1), 2L), Map.of()));
        member(1).votes.put("x", traffic("x", 0, Map.of(), Map.of(NodeId.of(0), 1L)));
        member(0).protocol.nominate(List.of("x"));
        deliverAll();
        for (Member m : members.values()) {
            assertTrue(m.dropped.isEmpty(), "nothing dropped on " + m.id);
            assertEquals(Set.of("x"), m.thawed);
        }
    }

    @Test
    void aDecisionThatReachedSomeMembersBeforeAViewChangeReachesTheOthersByInquiry() {
        cluster(4);
        member(0).protocol.nominate(List.of("k"));
        deliver(f -> !(f.message() instanceof ReclaimMessage.Decide)); // votes in; DECIDEs held
        assertTrue(member(0).dropped.contains("k"), "the steward applies its commit first");
        deliver(f -> f.message() instanceof ReclaimMessage.Decide && f.to().equals(NodeId.of(1)));
        assertTrue(member(1).dropped.contains("k"));
        // the steward crashes; its DECIDEs to 2 and 3 are lost with it
        network.removeIf(f -> f.from().equals(NodeId.of(0)));
        members.remove(NodeId.of(0));
        install(new View(2, List.of(NodeId.of(1), NodeId.of(2), NodeId.of(3))));
        deliverAll();
        for (long id = 1; id <= 3; id++) {
            assertEquals(Set.of("k"), member(id).dropped, "dropped on " + id);
            assertTrue(member(id).frozen.isEmpty());
            assertEquals(0, member(id).protocol.openRounds());
        }
    }

    @Test
    void aRoundUndecidedAtAViewChangeIsThawedEverywhere() {
        cluster(3);
        member(0).protocol.nominate(List.of("k"));
        deliver(f -> f.message() instanceof ReclaimMessage.Freeze); // members froze and voted; votes in flight
        install(new View(2, List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2))));
        deliverAll(); // the old epoch's votes are dropped; inquiries find no commit
        for (Member m : members.values()) {
            assertTrue(m.dropped.isEmpty(), "nothing dropped on " + m.id);
            assertEquals(Set.of("k"), m.thawed, "thawed on " + m.id);
            assertEquals(0, m.protocol.openRounds());
        }
    }

    @Test
    void aLateDecisionOfAnEndedEpochIsIgnoredAndTheInquiryDecides() {
        cluster(3);
        member(0).protocol.nominate(List.of("k"));
        deliver(f -> !(f.message() instanceof ReclaimMessage.Decide));
        // member 2 installs the next view before the DECIDE reaches it; the others follow
        install(new View(2, List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2))));
        deliverAll();
        for (Member m : members.values()) {
            assertEquals(Set.of("k"), m.dropped, "the steward committed, so everyone does, on " + m.id);
        }
    }

    @Test
    void aMemberAloneInItsViewThaws() {
        cluster(2);
        member(0).protocol.nominate(List.of("k"));
        deliver(f -> f.message() instanceof ReclaimMessage.Freeze);
        network.clear();
        members.remove(NodeId.of(0));
        install(new View(2, List.of(NodeId.of(1))));
        assertEquals(Set.of("k"), member(1).thawed);
        assertEquals(0, member(1).protocol.openRounds());
    }

    @Test
    void nominationsDuringARoundRunInTheNextOneAndLocksAreNeverFrozenTwice() {
        cluster(3);
        member(1).protocol.nominate(List.of("a"));
        deliver(f -> f.message() instanceof ReclaimMessage.Nominate);
        member(2).protocol.nominate(List.of("a", "b"));
        deliverAll();
        for (Member m : members.values()) {
            assertEquals(Set.of("a", "b"), m.dropped, "dropped on " + m.id);
        }
    }

    @Test
    void aRoundCarriesAtMostItsLimitOfNames() {
        cluster(2);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < Reclamation.MAX_NAMES_PER_ROUND + 5; i++) {
            names.add("n" + i);
        }
        member(0).protocol.nominate(names);
        deliverAll();
        assertEquals(names.size(), member(1).dropped.size());
        assertEquals(2 * 3, sent, "two rounds of FREEZE, VOTE, DECIDE");
    }
}
