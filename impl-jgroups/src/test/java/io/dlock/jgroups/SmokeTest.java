package io.dlock.jgroups;

import io.dlock.DistributedLock;
import io.dlock.MutexAlgorithm;
import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void smoke() throws Exception {
        for (boolean tcp : new boolean[] {false, true}) {
            long t0 = System.nanoTime();
            try (JGroupsCluster c = tcp ? JGroupsCluster.tcp(3, MutexAlgorithm.CENTRALIZED) : JGroupsCluster.loopback(3, MutexAlgorithm.CENTRALIZED)) {
                System.out.println("joined in " + (System.nanoTime() - t0) / 1e6 + " ms, view " + c.node(0).view());
                DistributedLock l = c.node(0).lock("x");
                for (int i = 0; i < 1000; i++) { l.lock(); l.unlock(); }
                long t1 = System.nanoTime();
                for (int i = 0; i < 2000; i++) { l.lock(); l.unlock(); }
                System.out.println((tcp ? "tcp" : "loopback") + " lock+unlock us: " + (System.nanoTime() - t1) / 2000 / 1e3 + " " + c.node(0).metrics());
            }
            System.out.println("closed after " + (System.nanoTime() - t0) / 1e6 + " ms");
        }
    }
}
