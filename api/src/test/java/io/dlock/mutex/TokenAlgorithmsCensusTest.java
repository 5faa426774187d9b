package io.dlock.mutex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.mutex.common.CensusCarrier;
import io.dlock.mutex.testing.Cluster;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.NodeId;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The token census as every token algorithm runs it: its cost (3(N-1) messages per view change, one
 * HELLO more when a lock is first used by a member that is not the steward), and a member that
 * leaves and comes back as a new node under the same id (a restarted node), which the census must
 * not take for the old instance.
 */
class TokenAlgorithmsCensusTest {

    static Stream<MutexAlgorithm> tokenAlgorithms() {
        return Stream.of(MutexAlgorithm.values()).filter(a -> a.definition().family() == ProtocolFamily.TOKEN);
    }

    /** A view change costs exactly 3(N-1) census messages (QUERY, REPORT, DONE), then requests are granted. */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void viewChangeCostsThreeNMinusOne(MutexAlgorithm algorithm) {
        censusCost(algorithm.definition(), false);
    }

    /** A lock first used by a non-steward (created lazily everywhere) costs 3(N-1) + 1 census messages (HELLO first). */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void firstUseCostsOneHelloMore(MutexAlgorithm algorithm) {
        censusCost(algorithm.definition(), true);
    }

    private static <M extends ProtocolMessage> void censusCost(MutexProtocolDefinition<M> d, boolean lazy) {
        int n = 5;
        Cluster<M> c = lazy ? Cluster.lazy(d, n, ProtocolOptions.NONE) : new Cluster<>(d, n);
        if (!lazy) {
            c.changeView(c.nextView(0, 1, 2, 3, 4));
        }
        c.request(3);
        for (int round = 0; round < 1000 && !c.inCS(3); round++) {
            c.deliverAll();
            for (Map.Entry<NodeId, String> t : c.runningTimers()) {
                c.fireTimer(t.getKey().value(), t.getValue()); // token-ring's idle pause
            }
        }
        assertTrue(c.inCS(3));
        long census = c.sent().stream().filter(e -> e.message() instanceof CensusCarrier).count();
        assertEquals(3L * (n - 1) + (lazy ? 1 : 0), census, d.name() + (lazy ? " lazy" : " view change"));
        assertEquals(List.of(), c.violations());
    }

    /** Node 0 (the steward) and then node 2 leave and come back; every request is granted once, one at a time. */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void restartedMemberRejoinsUnderItsId(MutexAlgorithm algorithm) {
        for (long seed = 0; seed < 150; seed++) {
            run(algorithm.definition(), seed, seed % 2 == 0, algorithm + " seed=" + seed);
        }
    }

    private static <M extends ProtocolMessage> void run(MutexProtocolDefinition<M> d, long seed, boolean lazy,
                                                        String where) {
        Random random = new Random(seed);
        Cluster<M> c = lazy ? Cluster.lazy(d, 4, ProtocolOptions.NONE) : new Cluster<>(d, 4);
        Map<NodeId, Integer> budget = new TreeMap<>();
        for (NodeId m : c.members()) {
            budget.put(m, 4);
        }
        long[][] views = {{1, 2, 3}, {0, 1, 2, 3}, {0, 1, 3}, {0, 1, 2, 3}};
        int next = 0;
        for (int step = 0; step < 100_000; step++) {
            if (next < views.length && random.nextInt(30) == 0) {
                long[] members = views[next++];
                c.changeView(c.nextView(members));
                for (long m : members) {
                    if (!budget.containsKey(NodeId.of(m)) || budget.get(NodeId.of(m)) > 0) {
                        budget.merge(NodeId.of(m), 2, Integer::sum);
                    }
                }
                if (next == 2 || next == 4) {
                    budget.put(NodeId.of(next == 2 ? 0 : 2), 0); // the newcomer never uses the lock itself
                }
                continue;
            }
            if (!c.randomStep(random, budget, false, 0.02)) {
                if (next < views.length) {
                    continue; // idle until the next view
                }
                break;
            }
        }
        c.checkNobodyWaits();
        assertEquals(List.of(), c.violations(), where + " " + c);
    }
}
