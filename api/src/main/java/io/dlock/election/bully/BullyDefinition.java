package io.dlock.election.bully;

import io.dlock.protocol.AbstractElectionProtocolDefinition;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import io.dlock.NodeId;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Registry entry for {@linkplain Bully the bully algorithm} (docs/algorithms.md B1): complete graph, FIFO not
 * required, options {@value #OK_TIMEOUT} (default {@value #DEFAULT_OK_TIMEOUT_MS} ms: how long a
 * node waits for an OK before it declares itself the winner; must exceed a round trip) and
 * {@value #COORDINATOR_TIMEOUT} (default {@value #DEFAULT_COORDINATOR_TIMEOUT_MS} ms: how long a node
 * that got an OK waits for COORDINATOR before it starts again; must exceed the higher node's whole
 * election).
 */
public final class BullyDefinition extends AbstractElectionProtocolDefinition<BullyMessage> {

    /** The configuration name. */
    public static final String NAME = "bully";
    /** Option: the OK timeout T_ok in milliseconds. */
    public static final String OK_TIMEOUT = "ok-timeout-ms";
    /** Option: the COORDINATOR timeout T_coord in milliseconds. */
    public static final String COORDINATOR_TIMEOUT = "coordinator-timeout-ms";
    /** Default of {@link #OK_TIMEOUT}. */
    public static final long DEFAULT_OK_TIMEOUT_MS = 200;
    /** Default of {@link #COORDINATOR_TIMEOUT}. */
    public static final long DEFAULT_COORDINATOR_TIMEOUT_MS = 1000;

    /** Creates the definition; stateless. */
    public BullyDefinition() {
        super(NAME, ElectionTopology.COMPLETE_GRAPH, false, false, Set.of(OK_TIMEOUT, COORDINATOR_TIMEOUT),
                new BullyCodec(), "n-1 (second-highest starts) .. n^2-n-1 (lowest starts), top id crashed");
    }

    @Override
    public ElectionProtocol<BullyMessage> create(ElectionContext<BullyMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        long ok = context.options().getLong(OK_TIMEOUT, DEFAULT_OK_TIMEOUT_MS, 1, 86_400_000);
        long coordinator = context.options().getLong(COORDINATOR_TIMEOUT, DEFAULT_COORDINATOR_TIMEOUT_MS, 1, 86_400_000);
        return new Bully(context, ok, coordinator);
    }

    /** T_ok = 3 and T_coord = 6 times the largest delay: an OK (a round trip) and a whole election fit in them. */
    @Override
    public Map<String, Long> timeoutsFor(long maxDelay) {
        return Map.of(OK_TIMEOUT, 3 * maxDelay, COORDINATOR_TIMEOUT, 6 * maxDelay);
    }

    /**
     * docs/algorithms.md B1 generalised: the crashed members must all be above every live one (the old
     * coordinator and possibly more), {@code m} live, {@code c} crashed, the lowest starter of rank
     * {@code r} among the live (0 = lowest). Every live node from rank r up runs exactly one
     * election: ELECTION {@code sum over i = r..m-1 of (m-1-i+c)}, OK {@code sum over k = r+1..m-1
     * of (k-r)}, COORDINATOR {@code m-1}; with ids 1..n and n crashed, r = n-2 gives n-1 (BU-1) and
     * r = 0 gives n^2-n-1 (BU-2). Without a crash the count is exact only when at most one ELECTION
     * reaches the top node (one starter, of rank m-2 or m-1): otherwise the top node wins on the first ELECTION and is
     * made to run again by the later ones, a schedule-dependent number of times.
     */
    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        List<NodeId> live = scenario.liveRing().stream().sorted().toList();
        int m = live.size();
        int c = scenario.crashed().size();
        for (NodeId dead : scenario.crashed()) {
            if (dead.compareTo(live.get(m - 1)) < 0) {
                return OptionalLong.empty();
            }
        }
        int r = m;
        for (NodeId s : scenario.starters()) {
            r = Math.min(r, live.indexOf(s));
        }
        if (c == 0 && (scenario.starters().size() > 1 || r < m - 2)) {
            return OptionalLong.empty();
        }
        long total = m - 1L;
        for (int i = r; i < m; i++) {
            total += m - 1L - i + c;
        }
        for (int k = r + 1; k < m; k++) {
            total += k - r;
        }
        return OptionalLong.of(total);
    }
}
