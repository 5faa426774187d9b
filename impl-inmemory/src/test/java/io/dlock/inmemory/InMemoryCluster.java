package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;

import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.contract.LockCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.LongStream;

/**
 * N lock services in one JVM on a fresh in-memory cluster; closes them all. Test fixture, public for the tests of the
 * framework adapters (io.dlock.inmemory.spring, io.dlock.inmemory.shedlock).
 */
public final class InMemoryCluster implements LockCluster {

    final List<LockService> nodes = new ArrayList<>();

    public InMemoryCluster(int n, MutexAlgorithm algorithm) {
        this(n, DlockConfig.builder().mutex(algorithm));
    }

    public InMemoryCluster(int n, DlockConfig.Builder template) {
        this(LongStream.range(0, n).toArray(), template);
    }

    /**
     * A cluster of nodes with these ids (for example large random ones, as JGroups draws them when
     * {@code dlock.node.id} is not set).
     */
    public InMemoryCluster(long[] ids, DlockConfig.Builder template) {
        String cluster = "test-" + UUID.randomUUID();
        for (long id : ids) {
            nodes.add(LockService.start(template.cluster(cluster).nodeId(id).build()));
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> nodes.stream().allMatch(s -> s.view().size() == ids.length));
    }

    @Override
    public List<LockService> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        nodes.forEach(LockService::close);
    }
}
