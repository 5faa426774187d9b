package io.dlock.inmemory;

import io.dlock.MutexAlgorithm;
import io.dlock.contract.HoldContract;
import org.junit.jupiter.api.Timeout;

/**
 * Owner-free holds, asynchronous acquisition and leases ({@link HoldContract}, shared with the JGroups transport's
 * {@code JGroupsHoldContractTest}) on the real-time in-memory network, for every algorithm.
 */
@Timeout(60)
class HoldContractTest extends HoldContract<InMemoryCluster> {

    @Override
    protected InMemoryCluster start(int n, MutexAlgorithm algorithm) {
        return new InMemoryCluster(n, algorithm);
    }
}
