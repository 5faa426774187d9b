package io.dlock.reclaim;

import io.dlock.protocol.ProtocolMessage;
import java.util.List;

/** The messages of the reclamation protocol ({@link Reclamation}). */
public sealed interface ReclaimMessage extends ProtocolMessage {

    /** To the steward: these locks have been unused here for the idle expiry; please run a round for them. */
    record Nominate(List<String> names) implements ReclaimMessage {
        public Nominate {
            names = List.copyOf(names);
        }
    }

    /** From the steward to every other member: freeze these locks and vote on dropping them. */
    record Freeze(long round, List<String> names) implements ReclaimMessage {
        public Freeze {
            names = List.copyOf(names);
        }
    }

    /** To the steward: this member's vote on each lock of the round, in the order of {@link Freeze#names()}. */
    record Vote(long round, List<LockVote> votes) implements ReclaimMessage {
        public Vote {
            votes = List.copyOf(votes);
        }
    }

    /**
     * From the steward to every other member: drop the {@code committed} locks, raise the fencing floor to
     * {@code floor}, and thaw every other lock of the round.
     */
    record Decide(long round, List<String> committed, long floor) implements ReclaimMessage {
        public Decide {
            committed = List.copyOf(committed);
        }
    }

    /** After a view change, from a member that voted in {@code round} and heard no decision: did you commit it? */
    record Inquire(RoundId round) implements ReclaimMessage {
    }

    /**
     * The answer to {@link Inquire}: whether this member applied a commit of {@code round}, and the floor
     * that commit carried (0 if not committed).
     */
    record Answer(RoundId round, boolean committed, long floor) implements ReclaimMessage {
    }
}
