package io.dlock.election.ring;

import io.dlock.protocol.AbstractElectionProtocolDefinition;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Registry entry for {@linkplain Ring the ring election with the list of live ids} (docs/algorithms.md B2):
 * unidirectional ring, FIFO not required, option {@value #ACK_TIMEOUT} (default
 * {@value #DEFAULT_ACK_TIMEOUT_MS} ms; must exceed a round trip).
 */
public final class RingDefinition extends AbstractElectionProtocolDefinition<RingMessage> {

    /** The configuration name. */
    public static final String NAME = "ring";
    /** Option: how long a node waits for its successor's ACK, in milliseconds. */
    public static final String ACK_TIMEOUT = "ack-timeout-ms";
    /** Default of {@link #ACK_TIMEOUT}. */
    public static final long DEFAULT_ACK_TIMEOUT_MS = 200;

    /** Creates the definition; stateless. */
    public RingDefinition() {
        super(NAME, ElectionTopology.UNIDIRECTIONAL_RING, false, false, Set.of(ACK_TIMEOUT),
                new RingCodec(), "k(2n data + 2n ACK) for k initiators");
    }

    @Override
    public ElectionProtocol<RingMessage> create(ElectionContext<RingMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new Ring(context, context.options().getLong(ACK_TIMEOUT, DEFAULT_ACK_TIMEOUT_MS, 1, 86_400_000));
    }

    /** The ACK timeout is 3 times the largest delay: it must exceed a round trip. */
    @Override
    public Map<String, Long> timeoutsFor(long maxDelay) {
        return Map.of(ACK_TIMEOUT, 3 * maxDelay);
    }

    /**
     * docs/algorithms.md RL-1, RL-2: with m live nodes and k initiators, {@code 4km} (k(m ELECTION + m
     * COORDINATOR) and as many ACKs). With crashed members and one initiator, one more unanswered
     * attempt per crashed member; with crashed members and several initiators the number of attempts
     * depends on the schedule (empty).
     */
    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        long m = scenario.liveRing().size();
        long k = scenario.starters().size();
        int c = scenario.crashed().size();
        if (c > 0 && k > 1) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(4 * k * m + c);
    }
}
