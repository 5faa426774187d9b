package io.dlock.inmemory.sim;

import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.NodeId;
import java.util.OptionalLong;

/**
 * Seed 002's "Paterson" pseudocode with only its typos fixed (SPEC.md B6 errata 1), as an event
 * machine, for the PE-5 regression: the leader tests compare with the original id, relays stop
 * forwarding after their own id passes, and there is no ELECTED round. Test fixture; run it with
 * {@code encodeMessages(false)}.
 */
final class LiteralSeedPetersonDefinition implements ElectionProtocolDefinition<LiteralSeedPetersonDefinition.Value> {

    /** The seed's only message: a value. */
    record Value(NodeId v) implements ProtocolMessage {
    }

    @Override
    public String name() {
        return "literal-seed-peterson";
    }

    @Override
    public boolean requiresFifo() {
        return true;
    }

    @Override
    public ElectionTopology topology() {
        return ElectionTopology.UNIDIRECTIONAL_RING;
    }

    @Override
    public MessageCodec<Value> codec() {
        return null;
    }

    @Override
    public ElectionProtocol<Value> create(ElectionContext<Value> context) {
        return new Literal(context);
    }

    @Override
    public String messagesFormula() {
        return "never terminates";
    }

    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        return OptionalLong.empty();
    }

    /** The seed's loops as states: waiting for ntid, waiting for nntid, relaying, terminated. */
    private static final class Literal implements ElectionProtocol<Value> {
        private enum Step { ASLEEP, NTID, NNTID, RELAY, DONE }

        private final NodeId myId;
        private final NodeId successor;
        private final ElectionEffects<Value> effects;
        private Step step = Step.ASLEEP;
        private boolean leader;
        private NodeId tid;
        private NodeId ntid;

        Literal(ElectionContext<Value> context) {
            this.myId = context.self();
            this.successor = context.successor();
            this.effects = context.effects();
        }

        @Override
        public void onStart() {
            if (step == Step.ASLEEP) {
                tid = myId;
                effects.send(successor, new Value(tid)); // send(tid)
                step = Step.NTID;
            }
        }

        @Override
        public void onMessage(NodeId from, Value m) {
            onStart();
            NodeId v = m.v();
            if (step == Step.NTID) {
                ntid = v;
                if (ntid.equals(myId)) {
                    leader = true;
                }
                effects.send(successor, new Value(tid.compareTo(ntid) > 0 ? tid : ntid));
                step = Step.NNTID;
            } else if (step == Step.NNTID) {
                if (v.equals(myId)) {
                    leader = true;
                }
                NodeId max = tid.compareTo(v) >= 0 ? tid : v;
                if (ntid.compareTo(max) >= 0) {
                    tid = ntid;
                    effects.send(successor, new Value(tid)); // next iteration of the candidate loop
                    step = Step.NTID;
                } else {
                    step = Step.RELAY; // state = relay ends the candidate loop
                    leader = false;
                }
            } else if (step == Step.RELAY) {
                if (v.equals(myId)) {
                    leader = true;
                }
                effects.send(successor, m);
                if (leader) {
                    step = Step.DONE;
                    effects.leaderElected(myId); // the relay loop ends: this process returns as leader
                }
            }
        }
    }
}
