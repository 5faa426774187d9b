package io.dlock.inmemory;

import io.dlock.DistributedLock;
import io.dlock.MutexAlgorithm;
import io.dlock.contract.LockContract;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link java.util.concurrent.locks.Lock} contract of {@link DistributedLock} and mutual exclusion of a plain
 * counter ({@link LockContract}, shared with the JGroups transport's {@code JGroupsMutexIntegrationTest}) on the
 * real-time in-memory network, for every algorithm: 3 nodes, 3 threads per node, 100 increments per thread.
 */
@Timeout(60)
class DistributedLockContractTest extends LockContract<InMemoryCluster> {

    @Override
    protected InMemoryCluster start(int n, MutexAlgorithm algorithm) {
        return new InMemoryCluster(n, algorithm);
    }
}
