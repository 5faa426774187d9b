package io.dlock.inmemory.sim;

import io.dlock.election.changroberts.ChangRobertsDefinition;
import io.dlock.election.changroberts.ChangRobertsMessage;
import io.dlock.election.changroberts.ChangRobertsMessage.Elected;
import io.dlock.election.changroberts.ChangRobertsMessage.Election;
import io.dlock.protocol.AbstractElectionProtocolDefinition;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import io.dlock.spi.NodeId;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Seed 002's Chang-Roberts pseudocode exactly as printed, the missing <code>{</code> of
 * {@code if (mode == elected)} included (SPEC.md B4 erratum 1, CR-7): only
 * {@code coordinator = m} is conditional, so {@code send(elected, coordinator); return coordinator;}
 * run after every message that is not the process's own ELECTION. Initiator and responder as the
 * seed writes them; a process that returned ignores everything. Test fixture for the CR-7
 * regression; the messages and codec are the real algorithm's.
 */
final class LiteralSeedChangRobertsDefinition extends AbstractElectionProtocolDefinition<ChangRobertsMessage> {

    LiteralSeedChangRobertsDefinition() {
        super("literal-seed-chang-roberts", ElectionTopology.UNIDIRECTIONAL_RING, true, true, Set.of(),
                new ChangRobertsDefinition().codec(), "returns after its first foreign message");
    }

    @Override
    public ElectionProtocol<ChangRobertsMessage> create(ElectionContext<ChangRobertsMessage> context) {
        return new Literal(context);
    }

    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        return OptionalLong.empty();
    }

    /** election_initiator / election_responder as event handlers. */
    private static final class Literal implements ElectionProtocol<ChangRobertsMessage> {
        private final NodeId myPid;
        private final NodeId successor;
        private final ElectionEffects<ChangRobertsMessage> effects;
        private boolean started;
        private boolean returned;
        private NodeId coordinator;

        Literal(ElectionContext<ChangRobertsMessage> context) {
            this.myPid = context.self();
            this.successor = context.successor();
            this.effects = context.effects();
        }

        @Override
        public void onStart() { // election_initiator(my_pid)
            if (!started) {
                started = true;
                coordinator = myPid;
                effects.send(successor, new Election(coordinator));
            }
        }

        @Override
        public void onMessage(NodeId from, ChangRobertsMessage message) {
            if (returned) {
                return;
            }
            NodeId m = message instanceof Election e ? e.id() : ((Elected) message).leader();
            if (!started) { // election_responder(my_pid): its first receive
                started = true;
                coordinator = m.compareTo(myPid) > 0 ? m : myPid;
                effects.send(successor, new Election(coordinator));
                return;
            }
            // the while (true) body, braces as printed
            if (message instanceof Election && m.equals(myPid)) {
                effects.send(successor, new Elected(coordinator));
                finish();
                return;
            }
            if (message instanceof Elected) {
                coordinator = m; // the only statement the if governs
            }
            effects.send(successor, new Elected(coordinator));
            finish(); // return coordinator;
        }

        private void finish() {
            returned = true;
            effects.leaderElected(coordinator);
        }
    }
}
