package io.dlock.jgroups;

import io.dlock.MutexAlgorithm;
import io.dlock.contract.HoldContract;
import io.dlock.contract.RepresentativeAlgorithms;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;

/**
 * Owner-free holds, asynchronous acquisition and leases ({@link HoldContract}, shared with the in-memory transport's
 * {@code HoldContractTest}) over JGroups: 2 or 3 channels in one JVM on the loopback stack. Lease expiry and renewal,
 * a hold released from another thread and a cancelled asynchronous acquisition on the representative algorithms
 * (coordinator, permission, token); every algorithm with {@code -Ddlock.test.contract-all=true}.
 */
@Timeout(120)
class JGroupsHoldContractTest extends HoldContract<JGroupsCluster> {

    @Override
    protected JGroupsCluster start(int n, MutexAlgorithm algorithm) {
        return JGroupsCluster.loopback(n, algorithm);
    }

    @Override
    protected Stream<MutexAlgorithm> algorithms() {
        return RepresentativeAlgorithms.unless("dlock.test.contract-all");
    }
}
