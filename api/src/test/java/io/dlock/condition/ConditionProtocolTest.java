package io.dlock.condition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.condition.ConditionMessage.Await;
import io.dlock.condition.ConditionMessage.Cancel;
import io.dlock.condition.ConditionMessage.Declined;
import io.dlock.condition.ConditionMessage.Registered;
import io.dlock.condition.ConditionMessage.Signal;
import io.dlock.condition.ConditionMessage.Wake;
import io.dlock.NodeId;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ConditionProtocol} on a small network whose messages the test delivers, in order or shuffled. */
class ConditionProtocolTest {

    /** Three nodes n0 (the keeper), n1, n2, and the messages between them. */
    private static final class Net {
        record InFlight(NodeId from, NodeId to, ConditionMessage message) {
        }

        final List<ConditionProtocol> nodes = new ArrayList<>();
        final List<InFlight> inFlight = new ArrayList<>();
        final List<String> registered = new ArrayList<>();
        final List<String> woken = new ArrayList<>();
        /** Waiters whose thread gave up just before the wake-up reached it: the runtime refuses the wake. */
        final Set<String> refusing = new HashSet<>();
        long messages;

        Net(int n) {
            View view = View.ofRange(1, n);
            for (int i = 0; i < n; i++) {
                NodeId self = NodeId.of(i);
                nodes.add(new ConditionProtocol(self, view, new ConditionProtocol.Effects() {
                    @Override
                    public void send(NodeId to, ConditionMessage message) {
                        assertTrue(!to.equals(self), "sent to itself: " + message);
                        messages++;
                        // through the codec, as on a real transport
                        ConditionCodec codec = new ConditionCodec();
                        ConditionMessage copy = codec.decode(new WireReader(codec.toBytes(message)));
                        assertEquals(message, copy);
                        inFlight.add(new InFlight(self, to, copy));
                    }

                    @Override
                    public void registered(long waiter) {
                        registered.add(self.value() + ":" + waiter);
                    }

                    @Override
                    public boolean wake(long waiter) {
                        if (refusing.remove(self.value() + ":" + waiter)) {
                            return false;
                        }
                        woken.add(self.value() + ":" + waiter);
                        return true;
                    }
                }));
            }
        }

        ConditionProtocol node(int i) {
            return nodes.get(i);
        }

        /** Delivers every message, the oldest first (or a random one first with {@code random}). */
        void deliverAll(SplittableRandom random) {
            while (!inFlight.isEmpty()) {
                InFlight m = inFlight.remove(random == null ? 0 : random.nextInt(inFlight.size()));
                nodes.get((int) m.to().value()).onMessage(m.from(), m.message());
            }
        }
    }

    @Test
    void awaitIsRegisteredAtTheKeeperThenASignalFromAnotherNodeWakesIt() {
        Net net = new Net(3);
        net.node(1).onAwait(7);
        assertEquals(List.of(), net.registered, "registered only once the keeper answers");
        net.deliverAll(null);
        assertEquals(List.of("1:7"), net.registered);
        assertEquals(1, net.node(0).queued());
        net.node(2).onSignal(false);
        net.deliverAll(null);
        assertEquals(List.of("1:7"), net.woken);
        assertEquals(4, net.messages, "AWAIT, REGISTERED, SIGNAL, WAKE");
        assertEquals(0, net.node(0).queued());
    }

    @Test
    void theKeeperSendsNothingToItself() {
        Net net = new Net(3);
        net.node(0).onAwait(1);
        assertEquals(List.of("0:1"), net.registered);
        net.node(0).onSignal(false);
        assertEquals(List.of("0:1"), net.woken);
        assertEquals(0, net.messages);
    }

    @Test
    void signalWakesInQueueOrderAndSignalAllWakesEveryone() {
        Net net = new Net(3);
        net.node(1).onAwait(1);
        net.deliverAll(null);
        net.node(2).onAwait(1);
        net.deliverAll(null);
        net.node(0).onAwait(1);
        net.node(1).onAwait(2);
        net.deliverAll(null);
        net.node(2).onSignal(false);
        net.deliverAll(null);
        assertEquals(List.of("1:1"), net.woken, "the first queued");
        net.node(1).onSignal(true);
        net.deliverAll(null);
        assertEquals(Set.of("1:1", "2:1", "0:1", "1:2"), new HashSet<>(net.woken));
        assertEquals(4, net.woken.size());
    }

    @Test
    void aSignalWithNoWaiterIsNotKept() {
        Net net = new Net(3);
        net.node(1).onSignal(false);
        net.deliverAll(null);
        net.node(2).onAwait(1);
        net.deliverAll(null);
        assertEquals(List.of(), net.woken);
    }

    @Test
    void aCancelTakesTheWaiterOutOfTheQueue() {
        Net net = new Net(3);
        net.node(1).onAwait(1);
        net.deliverAll(null);
        net.node(1).onGiveUp(1);
        net.deliverAll(null);
        assertEquals(0, net.node(0).queued());
        net.node(2).onSignal(false);
        net.deliverAll(null);
        assertEquals(List.of(), net.woken);
    }

    @Test
    void aWakeThatCrossesACancelIsDeclinedAndPassedToTheNextWaiter() {
        Net net = new Net(3);
        net.node(1).onAwait(1);
        net.deliverAll(null);
        net.node(2).onAwait(1);
        net.deliverAll(null);
        net.node(0).onSignal(false); // WAKE to n1:1 in flight
        net.node(1).onGiveUp(1);     // CANCEL in flight, crossing it
        assertEquals(2, net.inFlight.size());
        net.deliverAll(null);
        assertEquals(List.of("2:1"), net.woken, "the signal went on to the next waiter");
        assertTrue(net.inFlight.isEmpty());
    }

    @Test
    void aWakeTheRuntimeRefusesGoesToTheNextWaiter() {
        Net net = new Net(3);
        net.node(1).onAwait(1);
        net.deliverAll(null);
        net.node(0).onAwait(1);
        net.refusing.add("1:1"); // its thread timed out a moment before the WAKE arrives
        net.node(2).onSignal(false);
        net.deliverAll(null);
        assertEquals(List.of("0:1"), net.woken);
        net.node(1).onGiveUp(1); // the runtime's give-up, after the refused wake: nothing more
        net.deliverAll(null);
        assertEquals(0, net.node(0).queued());
    }

    /**
     * A WAKE that overtakes its waiter's REGISTERED (no FIFO; the keeper passed a declined signal on) wakes
     * the waiter, still holding the lock, instead of declining: declined, it would be out of the queue yet
     * wait for ever once REGISTERED arrived (found by the condition simulation, Ricart-Agrawala N=3 seed 15).
     */
    @Test
    void aWakeThatOvertakesRegisteredWakesTheWaiter() {
        Net net = new Net(3);
        net.node(1).onAwait(5);
        ConditionMessage await = net.inFlight.remove(0).message();
        net.node(0).onMessage(NodeId.of(1), await);        // queued; REGISTERED in flight
        ConditionMessage registered = net.inFlight.remove(0).message();
        net.node(0).onMessage(NodeId.of(2), new Declined(9)); // a declined signal is passed on: WAKE n1:5
        ConditionMessage wake = net.inFlight.remove(0).message();
        assertEquals(new Wake(5), wake);
        net.node(1).onMessage(NodeId.of(0), wake);        // the WAKE overtakes the REGISTERED
        net.node(1).onMessage(NodeId.of(0), registered);
        assertEquals(List.of("1:5"), net.woken);
        assertEquals(List.of(), net.registered, "woken while still holding the lock: it never waits");
        assertTrue(net.inFlight.isEmpty(), "nothing declined");
        assertEquals(0, net.node(1).localWaiters());
    }

    @Test
    void aViewChangeWakesEveryLocalWaiterAndEmptiesTheQueue() {
        Net net = new Net(3);
        net.node(1).onAwait(1);
        net.deliverAll(null);
        net.node(2).onAwait(1); // still registering: its AWAIT is lost with the old epoch
        View next = View.ofRange(2, 3);
        net.inFlight.clear();
        for (ConditionProtocol p : net.nodes) {
            p.onView(next);
        }
        assertEquals(Set.of("1:1", "2:1"), new HashSet<>(net.woken));
        assertEquals(0, net.node(0).queued());
        assertEquals(0, net.node(1).localWaiters());
    }

    @Test
    void theKeeperIsTheLowestMemberOfTheView() {
        Net net = new Net(3);
        net.node(2).onView(new View(2, List.of(NodeId.of(1), NodeId.of(2))));
        assertEquals(NodeId.of(1), net.node(2).keeper());
    }

    @Test
    void badWaiterNumbersAreRefused() {
        Net net = new Net(2);
        assertThrows(IllegalArgumentException.class, () -> net.node(1).onAwait(0));
        net.node(1).onAwait(3);
        assertThrows(IllegalArgumentException.class, () -> net.node(1).onAwait(3));
        assertThrows(IllegalArgumentException.class, () -> new Await(0));
    }

    @Test
    void everyMessageSurvivesTheCodec() {
        ConditionCodec codec = new ConditionCodec();
        for (ConditionMessage m : List.of(new Await(1), new Registered(2), new Cancel(3), new Signal(true),
                new Signal(false), new Wake(4), new Declined(Long.MAX_VALUE))) {
            assertEquals(m, codec.decode(new WireReader(codec.toBytes(m))));
        }
        assertThrows(io.dlock.spi.MalformedMessageException.class, () -> codec.decode(new WireReader(new byte[] {9, 1})));
        assertThrows(io.dlock.spi.MalformedMessageException.class, () -> codec.decode(new WireReader(new byte[] {1, 0})));
    }

    /**
     * No lost wake-up, under any delivery order: W waiters registered on random nodes, then K single
     * signals from random nodes, while random waiters give up. At the end exactly
     * min(K, W - G) waiters were woken, G being the waiters that gave up before they were woken: every
     * signal woke a waiter as long as one was left.
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void noSignalIsLostWhileWaitersAreLeft(int n) {
        for (long seed = 1; seed <= 500; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            Net net = new Net(n);
            int waiters = 1 + random.nextInt(8);
            List<int[]> all = new ArrayList<>();
            for (int w = 1; w <= waiters; w++) {
                int node = random.nextInt(n);
                net.node(node).onAwait(w);
                all.add(new int[] {node, w});
            }
            net.deliverAll(random); // every waiter registered before any signal (it released the lock after)
            assertEquals(waiters, net.registered.size());
            int signals = random.nextInt(waiters + 3);
            int gaveUp = 0;
            for (int s = 0; s < signals || random.nextInt(3) == 0; s++) {
                if (s < signals) {
                    net.node(random.nextInt(n)).onSignal(false);
                }
                if (random.nextInt(3) == 0) {
                    int[] w = all.get(random.nextInt(all.size()));
                    if (!net.woken.contains(w[0] + ":" + w[1])) { // a woken thread no longer gives up
                        int before = net.node(w[0]).localWaiters();
                        net.node(w[0]).onGiveUp(w[1]);
                        if (net.node(w[0]).localWaiters() < before) {
                            gaveUp++;
                        }
                    }
                }
                // deliver part of what is in flight, in random order
                for (int d = random.nextInt(net.inFlight.size() + 1); d > 0; d--) {
                    Net.InFlight m = net.inFlight.remove(random.nextInt(net.inFlight.size()));
                    net.node((int) m.to().value()).onMessage(m.from(), m.message());
                }
            }
            net.deliverAll(random);
            assertEquals(Math.min(signals, waiters - gaveUp), net.woken.size(),
                    "seed " + seed + ": " + signals + " signals, " + waiters + " waiters, " + gaveUp + " gave up, woken "
                            + net.woken);
            assertEquals(net.woken.size(), new HashSet<>(net.woken).size(), "seed " + seed + ": a waiter woken twice");
        }
    }
}
