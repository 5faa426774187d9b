package io.dlock.inmemory.sim;

import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A test-only protocol that probes the simulator's channels and timers rather than locking anything.
 * It declares that it requires FIFO. Option {@code mode}:
 * <ul>
 *   <li>{@code fifo}: a requesting node broadcasts {@value #BURST} numbered messages and is granted at
 *       once; a receiver throws if a sender's numbers arrive out of order (the simulator reports the
 *       exception as the run's error);</li>
 *   <li>{@code timer}: a request sets timer {@code late} to 10 then restarts it at 3, sets {@code never}
 *       to 1 and cancels it, and is granted when {@code late} fires; {@code never} firing throws.</li>
 * </ul>
 */
public final class ProbeDefinition implements MutexProtocolDefinition<ProbeDefinition.Seq> {

    /** Messages per request in {@code fifo} mode. */
    static final int BURST = 50;

    /** The {@code n}-th message of its sender. */
    public record Seq(long n) implements ProtocolMessage {
    }

    @Override
    public String name() {
        return "probe";
    }

    @Override
    public ProtocolFamily family() {
        return ProtocolFamily.PERMISSION;
    }

    @Override
    public boolean requiresFifo() {
        return true;
    }

    @Override
    public Set<String> optionKeys() {
        return Set.of("mode");
    }

    @Override
    public MessageCodec<Seq> codec() {
        return new MessageCodec<>() {
            @Override
            public void encode(Seq message, WireWriter out) {
                out.writeByte(7).writeVarLong(message.n());
            }

            @Override
            public Seq decode(WireReader in) {
                if (in.readByte() != 7) {
                    throw new MalformedMessageException("not a probe message");
                }
                return new Seq(in.readVarLong());
            }
        };
    }

    @Override
    public MutexProtocol<Seq> create(ProtocolContext<Seq> context) {
        context.options().requireKeysIn(name(), optionKeys());
        String mode = context.options().values().getOrDefault("mode", "fifo");
        MutexEffects<Seq> effects = context.effects();
        return new MutexProtocol<>() {
            private final Map<NodeId, Long> lastSeen = new HashMap<>();
            private long sent;
            private long fence;

            @Override
            public void onRequest() {
                if (mode.equals("timer")) {
                    effects.setTimer("late", 10);
                    effects.setTimer("late", 3);
                    effects.setTimer("never", 1);
                    effects.cancelTimer("never");
                    return;
                }
                for (int i = 0; i < BURST; i++) {
                    effects.broadcast(new Seq(++sent));
                }
                effects.granted(++fence);
            }

            @Override
            public void onRelease() {
            }

            @Override
            public void onMessage(NodeId from, Seq message) {
                long expected = lastSeen.getOrDefault(from, 0L) + 1;
                if (message.n() != expected) {
                    throw new IllegalStateException("out of order from " + from + ": got " + message.n()
                            + ", expected " + expected);
                }
                lastSeen.put(from, expected);
            }

            @Override
            public void onView(View view) {
            }

            @Override
            public void onTimer(String name) {
                if (name.equals("never")) {
                    throw new IllegalStateException("cancelled timer fired");
                }
                effects.granted(++fence);
            }
        };
    }

    @Override
    public String messagesFormula() {
        return "BURST(N-1)";
    }

    @Override
    public double expectedMessagesPerEntry(int n) {
        return BURST * (n - 1.0);
    }

    @Override
    public double expectedSyncDelay() {
        return Double.NaN;
    }
}
