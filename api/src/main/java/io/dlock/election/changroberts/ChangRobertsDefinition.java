package io.dlock.election.changroberts;

import io.dlock.protocol.AbstractElectionProtocolDefinition;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import io.dlock.NodeId;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Registry entry for {@linkplain ChangRoberts Chang and Roberts' algorithm} (docs/algorithms.md B4):
 * unidirectional FIFO ring; option {@value #SEED_MAX_SEEN} ({@code false} by default) selects the
 * source notes' comparison with the largest id seen instead of the node's own id.
 */
public final class ChangRobertsDefinition extends AbstractElectionProtocolDefinition<ChangRobertsMessage> {

    /** The configuration name. */
    public static final String NAME = "chang-roberts";
    /** Option: the source notes' max-seen comparison (docs/algorithms.md B4 variant {@code seedMaxSeen}). */
    public static final String SEED_MAX_SEEN = "seed-max-seen";

    /** Creates the definition; stateless. */
    public ChangRobertsDefinition() {
        super(NAME, ElectionTopology.UNIDIRECTIONAL_RING, true, true, Set.of(SEED_MAX_SEEN),
                new ChangRobertsCodec(), "ELECTION 2n-1 (best) .. n(n+1)/2 (worst), + n ELECTED");
    }

    @Override
    public ElectionProtocol<ChangRobertsMessage> create(ElectionContext<ChangRobertsMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new ChangRoberts(context, context.options().getBoolean(SEED_MAX_SEEN, false));
    }

    /**
     * docs/algorithms.md CR-1..CR-3, CR-5, all initiating before any delivery: id x travels until the first
     * larger id along the ring (the maximum travels n hops), plus n ELECTED. Empty when not every
     * node initiates (the count then depends on the schedule) or with crashes.
     */
    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        if (!scenario.crashed().isEmpty() || !scenario.allLiveStart()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(electionMessages(scenario.ring()) + scenario.n());
    }

    /** The ELECTION messages of the classic rule when all of {@code ring} initiate. */
    public static long electionMessages(List<NodeId> ring) {
        int n = ring.size();
        long total = 0;
        for (int i = 0; i < n; i++) {
            int hops = 1;
            while (hops < n && ring.get((i + hops) % n).compareTo(ring.get(i)) < 0) {
                hops++;
            }
            total += hops;
        }
        return total;
    }
}
