package io.dlock.membership;

import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PrimaryGate}: nothing reaches the protocol in a non-primary view; a returning node rejoins fresh. */
class PrimaryGateTest {

    /** A protocol that records its events, grants at once and sets a timer on request. */
    private static final class Recorder implements MutexProtocol<ProtocolMessage> {
        final List<String> events;
        final MutexEffects<ProtocolMessage> effects;
        final int instance;

        Recorder(List<String> events, MutexEffects<ProtocolMessage> effects, int instance) {
            this.events = events;
            this.effects = effects;
            this.instance = instance;
        }

        @Override
        public void onRequest() {
            events.add(instance + ":request");
            effects.setTimer("t", 1);
            effects.granted(instance);
        }

        @Override
        public void onRelease() {
            events.add(instance + ":release");
        }

        @Override
        public void onMessage(NodeId from, ProtocolMessage message) {
            events.add(instance + ":message");
        }

        @Override
        public void onView(View view) {
            events.add(instance + ":view " + view.epoch());
        }

        @Override
        public void onTimer(String name) {
            events.add(instance + ":timer " + name);
        }
    }

    private final List<String> events = new ArrayList<>();
    private final List<Long> grants = new ArrayList<>();
    private int instances;

    private final MutexEffects<ProtocolMessage> driver = new MutexEffects<>() {
        @Override
        public void send(NodeId to, ProtocolMessage message) {
        }

        @Override
        public void broadcast(ProtocolMessage message) {
        }

        @Override
        public void granted(long fencingToken) {
            grants.add(fencingToken);
        }

        @Override
        public void setTimer(String name, long delayMillis) {
        }

        @Override
        public void cancelTimer(String name) {
        }
    };

    private PrimaryGate<ProtocolMessage> gate() {
        MutexProtocolDefinition<ProtocolMessage> definition = new AbstractMutexProtocolDefinitionStub() {
            @Override
            public MutexProtocol<ProtocolMessage> create(ProtocolContext<ProtocolMessage> context) {
                events.add("create " + context.view().epoch() + " idle=" + context.startsIdle());
                return new Recorder(events, context.effects(), ++instances);
            }
        };
        return PrimaryGate.create(definition, new ProtocolContext<>(NodeId.of(1), View.ofRange(1, 3), driver,
                ProtocolOptions.NONE), true);
    }

    /** While frozen: no message, request or timer reaches the protocol; a holder is fenced out and its release swallowed. */
    @Test
    void frozenNodeDoesNothingAndHolderIsFencedOut() {
        PrimaryGate<ProtocolMessage> gate = gate();
        gate.onRequest();
        assertEquals(List.of(1L), grants);
        gate.onView(new View(2, List.of(NodeId.of(1))), false);
        assertTrue(gate.frozen());
        assertEquals(1, gate.fencedOut());
        gate.onMessage(NodeId.of(2), null);
        gate.onTimer("t");
        gate.onRelease(); // the fenced-out holder leaves late: swallowed
        gate.onRequest(); // kept
        assertEquals(List.of("create 1 idle=true", "1:request"), events);
        assertEquals(1, gate.droppedWhileFrozen());
    }

    /** Back in a primary view: a fresh, non-idle instance created in the old view, told the new one, then the kept request. */
    @Test
    void returningNodeRejoinsWithFreshInstance() {
        PrimaryGate<ProtocolMessage> gate = gate();
        gate.onView(new View(2, List.of(NodeId.of(1))), false);
        gate.onRequest();
        gate.onView(View.ofRange(3, 3), true);
        assertFalse(gate.frozen());
        assertEquals(List.of("create 1 idle=true", "create 1 idle=false", "2:view 3", "2:request"), events);
        assertEquals(1, gate.rejoins());
        gate.onTimer("t");
        assertEquals("2:timer t", events.get(events.size() - 1));
    }

    /** A timer set by a discarded instance is ignored when it fires. */
    @Test
    void staleTimerIgnored() {
        PrimaryGate<ProtocolMessage> gate = gate();
        gate.onRequest(); // instance 1 sets "t" and is granted
        gate.onView(new View(2, List.of(NodeId.of(1))), false);
        gate.onView(View.ofRange(3, 3), true);
        gate.onTimer("t");
        assertEquals(List.of("create 1 idle=true", "1:request", "create 1 idle=false", "2:view 3"), events);
    }

    /** Primary views go straight to the protocol; no instance is replaced. */
    @Test
    void primaryViewsPassThrough() {
        PrimaryGate<ProtocolMessage> gate = gate();
        gate.onView(View.ofRange(2, 4), true);
        gate.onView(View.ofRange(3, 5));
        assertEquals(List.of("create 1 idle=true", "1:view 2", "1:view 3"), events);
        assertEquals(0, gate.rejoins());
    }

    /** The definition methods a test protocol does not use. */
    private abstract static class AbstractMutexProtocolDefinitionStub implements MutexProtocolDefinition<ProtocolMessage> {
        @Override
        public String name() {
            return "recorder";
        }

        @Override
        public ProtocolFamily family() {
            return ProtocolFamily.TOKEN;
        }

        @Override
        public boolean requiresFifo() {
            return false;
        }

        @Override
        public MessageCodec<ProtocolMessage> codec() {
            return null;
        }

        @Override
        public String messagesFormula() {
            return "0";
        }

        @Override
        public double expectedMessagesPerEntry(int n) {
            return 0;
        }

        @Override
        public double expectedSyncDelay() {
            return 0;
        }
    }
}
