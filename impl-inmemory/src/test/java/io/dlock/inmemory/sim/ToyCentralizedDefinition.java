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
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * A test-only, trivially correct centralized lock (SPEC.md A1 plus request numbers), so that the
 * simulator can be tested independently of the real algorithms: the highest id coordinates, grants
 * in arrival order with a fencing token from one counter, and costs 3 messages per entry of another
 * node, 0 for its own. Request numbers make it tolerate duplicates, and on a new view a client
 * re-sends its pending REQUEST or its last RELEASE, so it also survives view changes that drop
 * messages of the old epoch (as long as the coordinator stays the same).
 */
public final class ToyCentralizedDefinition implements MutexProtocolDefinition<ToyCentralizedDefinition.Msg> {

    /** The toy's messages. */
    public sealed interface Msg extends ProtocolMessage permits Request, Grant, Release {
    }

    /** Client to coordinator: request number {@code req}. */
    public record Request(long req) implements Msg {
    }

    /** Coordinator to client: request {@code req} is granted with {@code fence}. */
    public record Grant(long req, long fence) implements Msg {
    }

    /** Client to coordinator: request {@code req} is over. */
    public record Release(long req) implements Msg {
    }

    @Override
    public String name() {
        return "toy-centralized";
    }

    @Override
    public ProtocolFamily family() {
        return ProtocolFamily.CENTRAL;
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
        context.options().requireKeysIn(name(), optionKeys());
        return new Node(context);
    }

    @Override
    public String messagesFormula() {
        return "3 (0 for the coordinator)";
    }

    @Override
    public double expectedMessagesPerEntry(int n) {
        return n == 1 ? 0 : 3.0 * (n - 1) / n;
    }

    @Override
    public double expectedSyncDelay() {
        return 2;
    }

    private static final MessageCodec<Msg> CODEC = new MessageCodec<>() {
        @Override
        public void encode(Msg message, WireWriter out) {
            if (message instanceof Request r) {
                out.writeByte(1).writeVarLong(r.req());
            } else if (message instanceof Grant g) {
                out.writeByte(2).writeVarLong(g.req()).writeVarLong(g.fence());
            } else if (message instanceof Release r) {
                out.writeByte(3).writeVarLong(r.req());
            }
        }

        @Override
        public Msg decode(WireReader in) {
            int type = in.readByte();
            switch (type) {
                case 1:
                    return new Request(in.readVarLong());
                case 2:
                    return new Grant(in.readVarLong(), in.readVarLong());
                case 3:
                    return new Release(in.readVarLong());
                default:
                    throw new MalformedMessageException("unknown toy message type " + type);
            }
        }
    };

    private static final class Node implements MutexProtocol<Msg> {
        private final NodeId self;
        private final MutexEffects<Msg> effects;
        private NodeId coordinator;
        // client state
        private long req;
        private boolean waiting;
        private long lastReleased;
        // coordinator state
        private NodeId holder;
        private long holderReq;
        private long holderFence;
        private long fence;
        private final ArrayDeque<Object[]> queue = new ArrayDeque<>();
        private final Map<NodeId, Long> released = new HashMap<>();

        Node(ProtocolContext<Msg> context) {
            self = context.self();
            effects = context.effects();
            coordinator = context.view().highest();
        }

        @Override
        public void onRequest() {
            req++;
            waiting = true;
            if (self.equals(coordinator)) {
                coordinatorRequest(self, req);
            } else {
                effects.send(coordinator, new Request(req));
            }
        }

        @Override
        public void onRelease() {
            lastReleased = req;
            if (self.equals(coordinator)) {
                coordinatorRelease(self, req);
            } else {
                effects.send(coordinator, new Release(req));
            }
        }

        @Override
        public void onMessage(NodeId from, Msg message) {
            if (message instanceof Request r) {
                coordinatorRequest(from, r.req());
            } else if (message instanceof Grant g) {
                clientGranted(g.req(), g.fence());
            } else if (message instanceof Release r) {
                coordinatorRelease(from, r.req());
            }
        }

        @Override
        public void onView(View view) {
            coordinator = view.highest();
            if (self.equals(coordinator)) {
                return;
            }
            if (lastReleased > 0) {
                effects.send(coordinator, new Release(lastReleased));
            }
            if (waiting) {
                effects.send(coordinator, new Request(req));
            }
        }

        private void coordinatorRequest(NodeId p, long r) {
            if (r <= released.getOrDefault(p, 0L)) {
                return;
            }
            if (p.equals(holder) && r == holderReq) {
                if (!p.equals(self)) {
                    effects.send(p, new Grant(r, holderFence));
                }
                return;
            }
            for (Object[] q : queue) {
                if (q[0].equals(p) && (long) q[1] == r) {
                    return;
                }
            }
            if (holder == null) {
                grant(p, r);
            } else {
                queue.add(new Object[] {p, r});
            }
        }

        private void coordinatorRelease(NodeId p, long r) {
            released.merge(p, r, Math::max);
            for (Iterator<Object[]> it = queue.iterator(); it.hasNext(); ) {
                Object[] q = it.next();
                if (q[0].equals(p) && (long) q[1] <= r) {
                    it.remove();
                }
            }
            if (p.equals(holder) && r == holderReq) {
                holder = null;
                Object[] next = queue.poll();
                if (next != null) {
                    grant((NodeId) next[0], (long) next[1]);
                }
            }
        }

        private void grant(NodeId p, long r) {
            holder = p;
            holderReq = r;
            holderFence = ++fence;
            if (p.equals(self)) {
                clientGranted(r, holderFence);
            } else {
                effects.send(p, new Grant(r, holderFence));
            }
        }

        private void clientGranted(long r, long f) {
            if (waiting && r == req) {
                waiting = false;
                effects.granted(f);
            }
        }
    }
}
