package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The token census's decision logic on its own, one member at a time (the census is dlock's own design for view changes, not part of any algorithm). */
class TokenCensusTest {

    private static final NodeId N0 = NodeId.of(0);
    private static final NodeId N1 = NodeId.of(1);
    private static final NodeId N2 = NodeId.of(2);

    /** A port that records what the census did and reports a settable state. */
    private static final class Recorder implements TokenCensus.Port<Object> {
        final List<String> sent = new ArrayList<>();
        final List<CensusOutcome> outcomes = new ArrayList<>();
        /** Every outcome sent in DONE, to one member or to all. */
        final List<CensusOutcome> doneSent = new ArrayList<>();
        final List<String> redelivered = new ArrayList<>();
        /** The number of reports given with each outcome (the steward's, where a regenerated token is rebuilt). */
        final List<Integer> reportsAtDone = new ArrayList<>();
        boolean holds;
        boolean inCS;
        long tokenFence;
        final FenceOnlyProtocol fences = new FenceOnlyProtocol();

        @Override
        public CensusReport localReport(long epoch) {
            return new CensusReport(epoch, holds, inCS, holds ? tokenFence : 0, fences.highestFence(), 0, false);
        }

        @Override
        public void sendHello(NodeId steward, long epoch) {
            sent.add("HELLO(" + epoch + ")->" + steward);
        }

        @Override
        public void broadcastQuery(long epoch) {
            sent.add("QUERY(" + epoch + ")->all");
        }

        @Override
        public void sendReport(NodeId steward, CensusReport report) {
            sent.add("REPORT(" + report.epoch() + "," + report.holdsToken() + ")->" + steward);
        }

        @Override
        public void sendDone(NodeId member, CensusOutcome outcome) {
            sent.add("DONE(" + outcome.holder() + ")->" + member);
            doneSent.add(outcome);
        }

        @Override
        public void broadcastDone(CensusOutcome outcome) {
            sent.add("DONE(" + outcome.holder() + ")->all");
            doneSent.add(outcome);
        }

        @Override
        public void censusDone(CensusOutcome outcome, Map<NodeId, CensusReport> reports) {
            outcomes.add(outcome);
            reportsAtDone.add(reports.size());
        }

        @Override
        public void redeliver(NodeId from, Object message) {
            redelivered.add(from + ":" + message);
        }

        List<String> drain() {
            List<String> copy = List.copyOf(sent);
            sent.clear();
            return copy;
        }
    }

    private static TokenCensus<Object> census(NodeId self, View view, boolean startsIdle, Recorder r) {
        return new TokenCensus<>(self, view, startsIdle, r.fences, r);
    }

    private static CensusReport idle(long epoch, long maxFence) {
        return new CensusReport(epoch, false, false, 0, maxFence, 0, false);
    }

    private static CensusReport holding(long epoch, boolean inCS, long fence) {
        return new CensusReport(epoch, true, inCS, fence, fence, 0, false);
    }

    /** With startsIdle no census runs: the lowest member holds the token, nothing is sent. */
    @Test
    void genesisNeedsNoCensus() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N1, View.ofRange(1, 3), true, r);
        c.beforeEvent();
        assertFalse(c.active());
        assertEquals(N0, c.outcome().holder());
        assertTrue(r.drain().isEmpty());
        assertTrue(r.outcomes.isEmpty());
    }

    /** A lazily created member that is not the steward says HELLO on its first event and waits. */
    @Test
    void lazyMemberSaysHelloOnFirstEvent() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N2, View.ofRange(4, 3), false, r);
        assertTrue(c.active());
        assertTrue(r.drain().isEmpty(), "nothing from the constructor");
        c.beforeEvent();
        assertEquals(List.of("HELLO(4)->n0"), r.drain());
        c.beforeEvent();
        assertTrue(r.drain().isEmpty(), "one HELLO only");
        assertTrue(c.active());
        assertNull(c.outcome());
    }

    /** A member whose first event is the steward's QUERY reports without a HELLO. */
    @Test
    void queryAsFirstEventNeedsNoHello() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N1, View.ofRange(4, 3), false, r);
        c.onQuery(N0, 4);
        assertEquals(List.of("REPORT(4,false)->n0"), r.drain());
        c.onDone(N0, new CensusOutcome(4, N0, true, 4L << 32));
        assertFalse(c.active());
        assertEquals(1, r.outcomes.size());
        assertEquals(4L << 32, r.fences.highestFence());
        c.onQuery(N0, 4);
        c.onDone(N0, new CensusOutcome(4, N2, false, 0));
        assertTrue(r.drain().isEmpty(), "a duplicate QUERY after DONE is not answered");
        assertEquals(1, r.outcomes.size(), "a duplicate DONE is ignored");
    }

    /** No member holds the token: the steward regenerates it with a fence above every reported one and the epoch floor. */
    @Test
    void nobodyHoldsThenStewardRegenerates() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N0, View.ofRange(2, 3), false, r);
        c.beforeEvent();
        assertEquals(List.of("QUERY(2)->all"), r.drain());
        long reported = (2L << 32) + 17;
        c.onReport(N1, idle(2, reported));
        assertTrue(c.active());
        c.onReport(N2, idle(2, 5));
        assertFalse(c.active());
        CensusOutcome o = r.outcomes.get(0);
        assertTrue(o.regenerated());
        assertEquals(N0, o.holder());
        assertEquals(reported, o.fenceFloor());
        assertEquals(List.of("DONE(n0)->all"), r.drain());
        assertEquals(List.of(3), r.reportsAtDone, "the steward's own report is included");
    }

    /** Exactly one member holds the token: it keeps it, and the floor covers its fence. */
    @Test
    void singleHolderKeepsTheToken() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N0, View.ofRange(1, 3), true, r);
        c.onView(View.ofRange(2, 3));
        assertEquals(List.of("QUERY(2)->all"), r.drain());
        c.onReport(N2, holding(2, false, 40));
        c.onReport(N1, idle(2, 39));
        CensusOutcome o = r.outcomes.get(0);
        assertFalse(o.regenerated());
        assertEquals(N2, o.holder());
        assertTrue(o.fenceFloor() >= 2L << 32);
    }

    /** Two holders (after a partition): the one in the critical section wins, else the higher fence, else the lower id. */
    @Test
    void severalHoldersKeepOne() {
        View v = View.ofRange(2, 4);
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N0, v, false, r);
        c.beforeEvent();
        c.onReport(N1, holding(2, false, 90));
        c.onReport(N2, holding(2, true, 10));
        c.onReport(NodeId.of(3), holding(2, false, 95));
        assertEquals(N2, r.outcomes.get(0).holder());

        Recorder r2 = new Recorder();
        TokenCensus<Object> c2 = census(N0, v, false, r2);
        c2.beforeEvent();
        c2.onReport(N1, holding(2, false, 90));
        c2.onReport(N2, holding(2, false, 95));
        c2.onReport(NodeId.of(3), holding(2, false, 95));
        assertEquals(N2, r2.outcomes.get(0).holder());
    }

    /** The steward's own token counts: an idle steward holding it keeps it. */
    @Test
    void stewardHoldingKeepsIt() {
        Recorder r = new Recorder();
        r.holds = true;
        r.tokenFence = 7;
        TokenCensus<Object> c = census(N0, View.ofRange(1, 2), true, r);
        c.onView(View.ofRange(2, 2));
        c.onReport(N1, idle(2, 7));
        assertEquals(N0, r.outcomes.get(0).holder());
        assertFalse(r.outcomes.get(0).regenerated());
    }

    /** Reports of another epoch, duplicates and reports from non-members of the census are ignored. */
    @Test
    void staleAndDuplicateReportsAreIgnored() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N0, View.ofRange(3, 3), false, r);
        c.beforeEvent();
        c.onReport(N1, holding(2, false, 5)); // an older epoch
        c.onReport(N1, idle(3, 0));
        c.onReport(N1, holding(3, true, 9)); // duplicate sender
        assertTrue(c.active());
        c.onReport(N2, idle(3, 0));
        assertTrue(r.outcomes.get(0).regenerated());
        c.onReport(N2, holding(3, false, 1)); // after the decision
        assertEquals(1, r.outcomes.size());
    }

    /** A one-member view decides at once, with no message. */
    @Test
    void aloneDecidesAtOnce() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N0, View.ofRange(1, 1), false, r);
        c.beforeEvent();
        assertFalse(c.active());
        assertTrue(r.drain().isEmpty());
        assertTrue(r.outcomes.get(0).regenerated());
    }

    /** A lazily created steward starts on a HELLO; once finished it answers a late HELLO with DONE. */
    @Test
    void stewardStartsOnHelloAndAnswersLateHello() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N0, View.ofRange(5, 3), false, r);
        c.onHello(N2, 5);
        assertEquals(List.of("QUERY(5)->all"), r.drain());
        c.onHello(N1, 5);
        assertTrue(r.drain().isEmpty(), "collecting: the QUERY is on its way");
        c.onReport(N1, idle(5, 0));
        c.onReport(N2, idle(5, 0));
        r.drain();
        c.onHello(N2, 5);
        assertEquals(List.of("DONE(n0)->n2"), r.drain());
        c.onHello(N2, 4);
        assertTrue(r.drain().isEmpty(), "a HELLO of another epoch is ignored");
    }

    /** A late HELLO gets the very decision the others got, and the outcome stays readable once the census is over. */
    @Test
    void lateDoneRepeatsTheDecision() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N0, View.ofRange(5, 3), false, r);
        c.onHello(N2, 5);
        c.onReport(N1, idle(5, (5L << 32) + 3));
        c.onReport(N2, idle(5, 0));
        CensusOutcome told = r.doneSent.get(0);
        assertEquals(new CensusOutcome(5, N0, true, (5L << 32) + 3), told);
        c.onHello(N1, 5);
        assertEquals(List.of(told, told), r.doneSent, "the same epoch, holder, regeneration and floor");
        assertEquals(told, c.outcome());
    }

    /** A member tells its algorithm the view's own instance of the holder's id, not the copy decoded from DONE. */
    @Test
    void theHolderIsTheViewsInstance() {
        Recorder r = new Recorder();
        View view = View.ofRange(5, 3);
        TokenCensus<Object> c = census(N1, view, false, r);
        c.onQuery(N0, 5);
        NodeId decoded = new NodeId(2);
        c.onDone(N0, new CensusOutcome(5, decoded, false, 7));
        assertEquals(new CensusOutcome(5, N2, false, 7), r.outcomes.get(0));
        assertSame(view.member(2), r.outcomes.get(0).holder());
        assertSame(view.member(2), c.outcome().holder());
    }

    /** Outside a census nothing is deferred: a view change would drop such a message before any DONE. */
    @Test
    void nothingIsDeferredOutsideACensus() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N1, View.ofRange(1, 3), true, r);
        c.defer(N2, "stray");
        c.onView(View.ofRange(2, 3));
        c.onDone(N0, new CensusOutcome(2, N0, false, 0));
        assertTrue(r.redelivered.isEmpty());
        assertFalse(c.active());
    }

    /** After a view change a member says HELLO only if the new steward may have no instance. */
    @Test
    void helloOnViewOnlyForAnUnknownSteward() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N2, new View(1, List.of(N1, N2)), true, r);
        c.onView(new View(2, List.of(N1, N2, NodeId.of(3))));
        assertTrue(r.drain().isEmpty(), "n1 was a member of the last complete census");
        assertTrue(c.active());
        c.onDone(N1, new CensusOutcome(2, N1, false, 0));
        assertFalse(c.active());
        c.onView(new View(3, List.of(N0, N1, N2, NodeId.of(3))));
        assertEquals(List.of("HELLO(3)->n0"), r.drain(), "n0 is new: it may have no instance yet");
    }

    /** Messages deferred during a census are redelivered after DONE, and dropped by a view change. */
    @Test
    void deferredMessagesAreRedeliveredAfterDone() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N1, View.ofRange(1, 3), true, r);
        c.onView(View.ofRange(2, 3));
        c.defer(N2, "old");
        c.onView(View.ofRange(3, 3));
        c.defer(N2, "token");
        c.onDone(N2, new CensusOutcome(3, N2, false, 0));
        assertTrue(r.redelivered.isEmpty(), "DONE from a non-steward is ignored");
        c.onDone(N0, new CensusOutcome(3, N2, false, 0));
        assertEquals(List.of("n2:token"), r.redelivered);
        assertEquals(3L << 32, r.fences.highestFence(), "every view raises the epoch floor");
    }

    /** An algorithm's census record, as each token algorithm declares one. */
    private record Census(CensusMessage message) implements CensusCarrier {
    }

    /** onMessage routes census messages to their handlers and defers other messages while a census is active. */
    @Test
    void onMessageRoutesAndDefers() {
        Recorder r = new Recorder();
        TokenCensus<Object> c = census(N1, View.ofRange(2, 3), false, r);
        assertTrue(c.onMessage(N2, "early"));
        assertEquals(List.of("HELLO(2)->n0"), r.drain());
        assertTrue(c.onMessage(N0, new Census(new CensusMessage.Hello(2))), "not the steward: ignored, but consumed");
        assertTrue(c.onMessage(N0, new Census(new CensusMessage.Query(2))));
        assertEquals(List.of("REPORT(2,false)->n0"), r.drain());
        assertTrue(c.onMessage(N0, new Census(new CensusMessage.Done(new CensusOutcome(2, N2, false, 0)))));
        assertEquals(List.of("n2:early"), r.redelivered);
        assertFalse(c.onMessage(N2, "now"), "census complete: the algorithm handles it");
    }

    /** Census fields survive the shared codec; bad flags and out-of-range fields are malformed. */
    @Test
    void codecRoundTrip() {
        CensusReport report = new CensusReport(9, true, true, 300, 301, 12, false);
        WireWriter out = new WireWriter();
        CensusCodec.writeReport(out, report);
        assertEquals(report, CensusCodec.readReport("x", new WireReader(out.toByteArray())));
        CensusOutcome outcome = new CensusOutcome(9, NodeId.of(77), true, 1L << 40);
        WireWriter out2 = new WireWriter();
        CensusCodec.writeOutcome(out2, outcome);
        assertEquals(outcome, CensusCodec.readOutcome("x", new WireReader(out2.toByteArray())));

        byte[] badFlags = new WireWriter().writeVarLong(1).writeByte(8).writeVarLong(0).writeVarLong(0)
                .writeVarLong(0).toByteArray();
        assertThrows(MalformedMessageException.class, () -> CensusCodec.readReport("x", new WireReader(badFlags)));
        byte[] inCsWithoutToken = new WireWriter().writeVarLong(1).writeByte(2).writeVarLong(0).writeVarLong(0)
                .writeVarLong(0).toByteArray();
        assertThrows(MalformedMessageException.class,
                () -> CensusCodec.readReport("x", new WireReader(inCsWithoutToken)));
    }
}
