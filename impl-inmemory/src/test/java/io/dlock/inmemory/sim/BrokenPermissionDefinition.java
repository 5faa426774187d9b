package io.dlock.inmemory.sim;

import io.dlock.protocol.LogicalClock;
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
import java.util.ArrayList;
import java.util.List;

/**
 * A test-only, deliberately broken permission algorithm: Ricart-Agrawala without the priority
 * comparison of RA2. A node defers a REQUEST only while it is in the critical section, so two nodes
 * that request concurrently both reply to each other and both enter: ME1 is violated whenever
 * requests overlap, and never when they do not. The checker must catch it; some seeds pass.
 */
public final class BrokenPermissionDefinition implements MutexProtocolDefinition<BrokenPermissionDefinition.Msg> {

    /** The broken algorithm's messages. */
    public sealed interface Msg extends ProtocolMessage permits Request, Reply {
    }

    /** Asks every other node for permission, with a Lamport timestamp. */
    public record Request(long ts) implements Msg {
    }

    /** Gives permission, with a Lamport timestamp. */
    public record Reply(long ts) implements Msg {
    }

    @Override
    public String name() {
        return "broken-permission";
    }

    @Override
    public ProtocolFamily family() {
        return ProtocolFamily.PERMISSION;
    }

    @Override
    public boolean requiresFifo() {
        return false;
    }

    @Override
    public MessageCodec<Msg> codec() {
        return CODEC;
    }

    @Override
    public MutexProtocol<Msg> create(ProtocolContext<Msg> context) {
        return new Node(context);
    }

    @Override
    public String messagesFormula() {
        return "2(N-1)";
    }

    @Override
    public double expectedMessagesPerEntry(int n) {
        return 2.0 * (n - 1);
    }

    @Override
    public double expectedSyncDelay() {
        return 1;
    }

    private static final MessageCodec<Msg> CODEC = new MessageCodec<>() {
        @Override
        public void encode(Msg message, WireWriter out) {
            if (message instanceof Request r) {
                out.writeByte(1).writeVarLong(r.ts());
            } else if (message instanceof Reply r) {
                out.writeByte(2).writeVarLong(r.ts());
            }
        }

        @Override
        public Msg decode(WireReader in) {
            int type = in.readByte();
            if (type == 1) {
                return new Request(in.readVarLong());
            }
            if (type == 2) {
                return new Reply(in.readVarLong());
            }
            throw new MalformedMessageException("unknown broken-permission message type " + type);
        }
    };

    private static final class Node implements MutexProtocol<Msg> {
        private final MutexEffects<Msg> effects;
        private final LogicalClock clock = new LogicalClock();
        private int others;
        private int replies;
        private boolean requesting;
        private boolean inCs;
        private final List<NodeId> deferred = new ArrayList<>();

        Node(ProtocolContext<Msg> context) {
            effects = context.effects();
            others = context.view().size() - 1;
        }

        @Override
        public void onRequest() {
            requesting = true;
            replies = 0;
            effects.broadcast(new Request(clock.tick()));
            if (others == 0) {
                enter();
            }
        }

        @Override
        public void onRelease() {
            inCs = false;
            requesting = false;
            for (NodeId j : deferred) {
                effects.send(j, new Reply(clock.tick()));
            }
            deferred.clear();
        }

        @Override
        public void onMessage(NodeId from, Msg message) {
            if (message instanceof Request r) {
                clock.witness(r.ts());
                if (inCs) { // BUG: RA2 also defers when requesting with a smaller (ts, id)
                    deferred.add(from);
                } else {
                    effects.send(from, new Reply(clock.tick()));
                }
            } else if (message instanceof Reply r) {
                clock.witness(r.ts());
                if (requesting && !inCs && ++replies == others) {
                    enter();
                }
            }
        }

        @Override
        public void onView(View view) {
            others = view.size() - 1;
        }

        private void enter() {
            inCs = true;
            effects.granted(clock.tick());
        }
    }
}
