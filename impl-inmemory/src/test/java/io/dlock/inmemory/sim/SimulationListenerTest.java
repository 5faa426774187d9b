package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link SimulationListener}: sees every message and grant of a run, and changes nothing in it. */
@Timeout(60)
class SimulationListenerTest {

    /** Every network message is reported sent exactly once, the grants equal the entries, and the run is unchanged. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void listener_seesEveryMessageOnce_andChangesNothing(MutexAlgorithm algorithm) {
        Simulation sim = Simulation.of(AlgorithmDefinitions.mutex(algorithm)).nodes(4).seed(7).workload(Workload.perNode(2));
        long[] grants = new long[1];
        Set<Long> sentIds = new HashSet<>();
        Set<Long> deliveredIds = new HashSet<>();
        SimulationResult observed = sim.run(new SimulationListener() {
            @Override
            public void sent(long time, long id, NodeId from, NodeId to, ProtocolMessage message) {
                assertTrue(sentIds.add(id), "message id " + id + " sent twice");
            }

            @Override
            public void delivered(long time, long id, NodeId from, NodeId to, ProtocolMessage message) {
                if (id != 0) {
                    assertTrue(sentIds.contains(id), "message " + id + " delivered before it was sent");
                    deliveredIds.add(id);
                }
            }

            @Override
            public void granted(long time, NodeId node, long fence, boolean counted) {
                grants[0]++;
            }
        });
        SimulationResult plain = sim.run();
        assertTrue(observed.ok(), observed::describeFailure);
        assertEquals(plain, observed, "a listener must not change the run");
        assertEquals(observed.messages(), sentIds.size(), observed::describeFailure);
        assertEquals(observed.entries(), grants[0], observed::describeFailure);
        assertTrue(deliveredIds.size() <= sentIds.size());
    }
}
