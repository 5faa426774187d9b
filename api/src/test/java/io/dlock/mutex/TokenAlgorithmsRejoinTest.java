package io.dlock.mutex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dlock.MutexAlgorithm;
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
 * Token algorithms when a member leaves and a new node rejoins under the same id (a restarted node):
 * the census must not take the newcomer for the old instance, whether it is the steward (lowest id)
 * or not, with protocols created up front or on first use.
 */
class TokenAlgorithmsRejoinTest {

    static Stream<MutexAlgorithm> tokenAlgorithms() {
        return Stream.of(MutexAlgorithm.values()).filter(a -> a.definition().family() == ProtocolFamily.TOKEN);
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
