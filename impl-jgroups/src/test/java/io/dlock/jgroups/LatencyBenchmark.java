package io.dlock.jgroups;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.spi.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (excluded from the normal build; run with
 * {@code mvn -B -pl impl-jgroups -am test -Pbench -Dtest=LatencyBenchmark -Dsurefire.failIfNoSpecifiedTests=false}):
 * lock+unlock latency of the centralized algorithm from a non-coordinator of a 3-node cluster on the
 * default TCP stack over 127.0.0.1, against one JGroups request-response round trip on the same stack
 * (the floor), with and without {@code DONT_BUNDLE} and {@code tcp_nodelay}. Prints p50, p90, p99 and
 * mean in microseconds. A first pass warms the JIT up and is not reported.
 */
@Tag("benchmark")
class LatencyBenchmark {

    private static final int WARMUP = 3_000;
    private static final int MEASURED = 10_000;

    @Test
    void lockUnlockAgainstRoundTrip() throws Exception {
        List<String> report = new ArrayList<>();
        String noDelay = JGroupsTransportFactory.readStack("default");
        String nagle = noDelay.replace("tcp_nodelay=\"true\"", "tcp_nodelay=\"false\"");
        java.nio.file.Path nagleFile = java.nio.file.Files.createTempFile("dlock-nagle", ".xml");
        java.nio.file.Files.writeString(nagleFile, nagle);
        try {
            roundTrip(true, "default"); // JIT warm-up, not reported
            lockUnlock(true, "default");
            Object[][] modes = {
                    {"tcp_nodelay, DONT_BUNDLE (dlock)", true, "default"},
                    {"tcp_nodelay, bundled", false, "default"},
                    {"no tcp_nodelay, bundled", false, nagleFile.toString()},
                    {"no tcp_nodelay, DONT_BUNDLE", true, nagleFile.toString()}};
            for (Object[] mode : modes) {
                boolean dontBundle = (Boolean) mode[1];
                String stack = (String) mode[2];
                double[] rtt = roundTrip(dontBundle, stack);
                double[] lock = lockUnlock(dontBundle, stack);
                report.add(line("round trip, " + mode[0], rtt));
                report.add(line("lock+unlock, " + mode[0], lock));
                report.add(String.format(Locale.ROOT, "ratio lock+unlock / round trip, %s: p50 %.2f, mean %.2f",
                        mode[0], lock[0] / rtt[0], lock[3] / rtt[3]));
            }
        } finally {
            java.nio.file.Files.deleteIfExists(nagleFile);
        }
        report.forEach(System.out::println);
    }

    /**
     * Signal-to-wake latency of a distributed condition: 3 nodes on the default TCP stack over 127.0.0.1, the
     * waiter on n2, the signaller on n3 (the condition's keeper is n1, so every step crosses the network):
     * from just before {@code signal()} (the signaller holds the lock) until the waiter is back in its
     * critical section after {@code await()}: SIGNAL to the keeper, WAKE to the waiter, the signaller's
     * unlock, and the waiter's reacquisition. Printed beside a plain lock+unlock of the same cluster.
     */
    @Test
    void signalToWake() throws Exception {
        for (MutexAlgorithm algorithm : List.of(MutexAlgorithm.CENTRALIZED, MutexAlgorithm.RICART_AGRAWALA,
                MutexAlgorithm.SUZUKI_KASAMI)) {
            try (JGroupsCluster cluster = new JGroupsCluster(3, JGroupsCluster.tcpTemplate(JGroupsCluster.base(algorithm), 3))) {
                DistributedLock waiterLock = cluster.node(1).lock("cond");
                DistributedLock signallerLock = cluster.node(2).lock("cond");
                java.util.concurrent.locks.Condition waiterCondition = waiterLock.newCondition("ready");
                java.util.concurrent.locks.Condition signallerCondition = signallerLock.newCondition("ready");
                int rounds = WARMUP / 3 + MEASURED / 5;
                java.util.concurrent.atomic.AtomicInteger generation = new java.util.concurrent.atomic.AtomicInteger();
                java.util.concurrent.Semaphore waiting = new java.util.concurrent.Semaphore(0); // no spinning: 2 cores
                java.util.concurrent.atomic.AtomicLong signalledAt = new java.util.concurrent.atomic.AtomicLong();
                long[] wake = new long[rounds];
                Thread waiter = new Thread(() -> {
                    try {
                        for (int i = 1; i <= rounds; i++) {
                            waiterLock.lock();
                            try {
                                waiting.release();
                                while (generation.get() < i) {
                                    waiterCondition.await();
                                }
                                wake[i - 1] = System.nanoTime() - signalledAt.get();
                            } finally {
                                waiterLock.unlock();
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "waiter");
                waiter.start();
                for (int i = 1; i <= rounds; i++) {
                    waiting.acquire(); // the waiter holds the lock and is about to await
                    signallerLock.lock(); // granted once the waiter's await has released the lock
                    try {
                        generation.set(i);
                        signalledAt.set(System.nanoTime());
                        signallerCondition.signal();
                    } finally {
                        signallerLock.unlock();
                    }
                }
                waiter.join(TimeUnit.MINUTES.toMillis(2));
                long[] measured = Arrays.copyOfRange(wake, WARMUP / 3, rounds);
                long[] lockUnlock = new long[MEASURED / 5];
                for (int i = 0; i < lockUnlock.length; i++) {
                    long start = System.nanoTime();
                    waiterLock.lock();
                    waiterLock.unlock();
                    lockUnlock[i] = System.nanoTime() - start;
                }
                System.out.println(line("signal->wake, " + algorithm.configName(), stats(measured)));
                System.out.println(line("lock+unlock, " + algorithm.configName(), stats(lockUnlock)));
            }
        }
    }

    private static String line(String what, double[] s) {
        return String.format(Locale.ROOT, "%-48s p50 %7.1f us  p90 %7.1f us  p99 %7.1f us  mean %7.1f us", what,
                s[0], s[1], s[2], s[3]);
    }

    /** p50, p90, p99, mean in microseconds. */
    private static double[] stats(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(Double.NaN);
        return new double[] {sorted[sorted.length / 2] / 1e3, sorted[sorted.length * 9 / 10] / 1e3,
                sorted[sorted.length * 99 / 100] / 1e3, mean / 1e3};
    }

    private static double[] lockUnlock(boolean dontBundle, String stack) throws Exception {
        try (JGroupsCluster cluster = new JGroupsCluster(3, JGroupsCluster.tcpTemplate(
                JGroupsCluster.base(MutexAlgorithm.CENTRALIZED), 3).set(JGroupsTransportFactory.STACK, stack), dontBundle)) {
            DistributedLock lock = cluster.node(0).lock("bench"); // n1; the coordinator is n3
            for (int i = 0; i < WARMUP; i++) {
                lock.lock();
                lock.unlock();
            }
            long[] t = new long[MEASURED];
            for (int i = 0; i < MEASURED; i++) {
                long start = System.nanoTime();
                lock.lock();
                lock.unlock();
                t[i] = System.nanoTime() - start;
            }
            return stats(t);
        }
    }

    /** n1 sends 8 bytes to n3, which echoes them; the time until n1 has the answer. */
    private static double[] roundTrip(boolean dontBundle, String stack) throws Exception {
        DlockConfig.Builder template = JGroupsCluster.tcpTemplate(JGroupsCluster.base(MutexAlgorithm.CENTRALIZED), 3)
                .set(JGroupsTransportFactory.STACK, stack).cluster("rtt-" + UUID.randomUUID());
        SynchronousQueue<byte[]> answers = new SynchronousQueue<>();
        List<JGroupsTransport> transports = new ArrayList<>();
        try {
            for (int id = 1; id <= 3; id++) {
                JGroupsTransport t = JGroupsTransportFactory.create(template.nodeId(id).build(), dontBundle);
                boolean echo = id == 3;
                t.start(new Transport.Receiver() {
                    @Override
                    public void onMessage(NodeId from, byte[] payload) {
                        if (echo) {
                            t.send(from, payload);
                        } else {
                            try {
                                answers.put(payload);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    }

                    @Override
                    public void onView(View view) {
                    }
                });
                transports.add(t);
            }
            JGroupsTransport client = transports.get(0);
            while (client.view().size() < 3) {
                Thread.sleep(20);
            }
            NodeId server = NodeId.of(3);
            byte[] ping = new byte[8];
            long[] t = new long[MEASURED];
            for (int i = 0; i < WARMUP + MEASURED; i++) {
                long start = System.nanoTime();
                client.send(server, ping);
                if (answers.poll(5, TimeUnit.SECONDS) == null) {
                    throw new AssertionError("no echo");
                }
                if (i >= WARMUP) {
                    t[i - WARMUP] = System.nanoTime() - start;
                }
            }
            return stats(t);
        } finally {
            transports.forEach(JGroupsTransport::close);
        }
    }
}
