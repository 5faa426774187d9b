package io.dlock.jgroups;

import io.dlock.MutexAlgorithm;
import io.dlock.contract.PartitionContract;
import io.dlock.contract.RepresentativeAlgorithms;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jgroups.Address;
import org.jgroups.protocols.DISCARD;
import org.junit.jupiter.api.Timeout;

/**
 * The majority rule on JGroups ({@link PartitionContract}, shared with the in-memory transport's
 * {@code PartitionTest}): 5 channels in one JVM, split 3|2 with DISCARD ({@code addIgnoreMember} on both sides);
 * failure detection (FD_ALL3 timeout 1500 ms + VERIFY_SUSPECT 300 ms in the test stack) gives each side its own
 * view, possibly with the same view id, and only the majority side grants. After the heal MERGE3 installs a merge
 * view with a higher id. Every wait is bounded.
 */
@Timeout(120)
class JGroupsPartitionTest extends PartitionContract<JGroupsCluster> {

    @Override
    protected JGroupsCluster start(int n, MutexAlgorithm algorithm) {
        return new JGroupsCluster(n, JGroupsCluster.base(algorithm)
                .set(JGroupsTransportFactory.STACK, "dlock-partition-test-stack.xml"));
    }

    @Override
    protected void split(JGroupsCluster cluster, List<Integer> majority, List<Integer> minority) {
        for (int a : majority) {
            for (int b : minority) {
                cut(cluster, a, b);
            }
        }
    }

    @Override
    protected void heal(JGroupsCluster cluster) {
        for (JGroupsTransport t : cluster.transports) {
            t.channel().getProtocolStack().<DISCARD>findProtocol(DISCARD.class).resetIgnoredMembers();
        }
    }

    /**
     * Centralized, Ricart-Agrawala and Suzuki-Kasami (a coordinator, a permission and a token algorithm) in
     * the default build; every algorithm with {@code -Ddlock.test.partition-all=true}.
     */
    @Override
    protected Stream<MutexAlgorithm> algorithms() {
        return RepresentativeAlgorithms.unless("dlock.test.partition-all");
    }

    /** Failure detection, then a merge (MERGE3), on the test stack. */
    @Override
    protected Duration viewChangeWithin() {
        return Duration.ofSeconds(40);
    }

    /** Channels {@code a} and {@code b} drop each other's messages. */
    private static void cut(JGroupsCluster cluster, int a, int b) {
        Address addressB = cluster.transports.get(b).channel().getAddress();
        Address addressA = cluster.transports.get(a).channel().getAddress();
        cluster.transports.get(a).channel().getProtocolStack().<DISCARD>findProtocol(DISCARD.class)
                .addIgnoreMember(addressB);
        cluster.transports.get(b).channel().getProtocolStack().<DISCARD>findProtocol(DISCARD.class)
                .addIgnoreMember(addressA);
    }
}
