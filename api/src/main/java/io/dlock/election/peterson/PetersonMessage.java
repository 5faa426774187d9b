package io.dlock.election.peterson;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.Objects;

/** The messages of {@link Peterson}, all sent to the successor. */
public sealed interface PetersonMessage extends ProtocolMessage {

    /**
     * Rules 1-3: the first message of a phase, an active node's temporary id ({@code tid}).
     *
     * @param value the sender's tid
     */
    record One(NodeId value) implements PetersonMessage {
        public One {
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * Rule 2: the second message of a phase, {@code max(tid, ntid)} of the sender.
     *
     * @param value the larger of the sender's tid and its predecessor's
     */
    record Two(NodeId value) implements PetersonMessage {
        public Two {
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * Rule 5 (added by docs/algorithms.md B6): the winner announces the maximum.
     *
     * @param leader the maximum id, the leader
     */
    record Elected(NodeId leader) implements PetersonMessage {
        public Elected {
            Objects.requireNonNull(leader, "leader");
        }
    }
}
