package io.dlock.mutex.maekawa;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import java.util.Set;

/**
 * Registry entry for {@linkplain Maekawa Maekawa's algorithm}, deadlock-free version (SPEC.md A10:
 * FAILED, INQUIRE, RELINQUISH and the displacement rule): quorum-based, <b>requires FIFO
 * channels</b>, {@code 3(K-1)} messages per entry without contention and up to about
 * {@code 5(K-1)} under load (K = quorum size, about {@code 2√N} for the grid, 3 for the N = 7 plane),
 * synchronization delay 2T.
 *
 * <p>Option {@value #BASIC} ({@code true}/{@code false}, default {@code false}): run the basic
 * version of seed 004 (MA1-MA5) instead: an arbiter locks for the first request it sees and queues
 * the others, with no FAILED, INQUIRE or RELINQUISH. It <b>can deadlock</b> (seed 004's example,
 * SPEC.md MK-3) and is there to show why the default exists; {@code 3(K-1)} messages per entry on
 * every schedule that does not deadlock.
 */
public final class MaekawaDefinition extends AbstractMutexProtocolDefinition<MaekawaMessage> {

    /** The configuration name. */
    public static final String NAME = "maekawa";

    /** Option key: run the basic version (MA1-MA5), which can deadlock. */
    public static final String BASIC = "basic";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public MaekawaDefinition() {
        super(NAME, ProtocolFamily.QUORUM, true, Set.of(BASIC), new MaekawaCodec(), "3(K-1)..5(K-1), K=|S_i|");
    }

    /** @throws IllegalArgumentException if an option is unknown or {@value #BASIC} is not a boolean */
    @Override
    public MutexProtocol<MaekawaMessage> create(ProtocolContext<MaekawaMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        boolean basic = context.options().getBoolean(BASIC, false);
        return new Maekawa(context, !basic);
    }

    /** Without contention: {@code 3(K-1)} averaged over the nodes' quorum sizes K. */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return uncontended(n);
    }

    /** {@code 3(K-1)} averaged over the quorum sizes of {@code n} nodes: the cost of an uncontended entry. */
    public static double uncontended(int n) {
        return 3 * (Quorums.forSize(n).meanSize() - 1);
    }

    /** RELEASE to an arbiter, then LOCKED to the next requester. */
    @Override
    public double expectedSyncDelay() {
        return 2;
    }
}
