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
 * lock+unlock latency of the centralized algorithm from a non-coordinator of a 3-node cluster over 127.0.0.1,
 * against one JGroups request-response round trip on the same stack (the floor), on the shipped default stack
 * (TCP_NIO2, no bundler, {@code tcp_nodelay}) and on variants of it that a stack of one's own might have:
 * JGroups' default bundler ({@code per-destination}), the {@code transfer-queue} bundler, and {@code tcp_nodelay}
 * off. JGroups 5.5's bundlers batch every message whatever its flags ({@code DONT_BUNDLE} does not take a
 * message past them), so the stack alone decides. Prints p50, p90, p99 and mean in microseconds and the number
 * of samples (each pass stops after 10 s: without {@code tcp_nodelay} a lock+unlock waits for a delayed ACK). A
 * first pass warms the JIT up and is not reported.
 */
@Tag("benchmark")
class LatencyBenchmark {

    private static final int WARMUP = 3_000;
    private static final int MEASURED = 10_000;
    /**
     * Each pass (warm-up, then measured) stops early after this long: without {@code tcp_nodelay} an operation can
     * take one delayed ACK (about 40 ms), and 13 000 of them would take nine minutes.
     */
    private static final long PASS_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final String NO_BUNDLER = "bundler_type=\"no-bundler\"";

    /** A stack to measure: a label and the default stack's text with some settings changed. */
    private record StackVariant(String label, String xml) {
    }

    @Test
    void lockUnlockAgainstRoundTrip() throws Exception {
        String shipped = JGroupsTransportFactory.readStack("default");
        if (!shipped.contains(NO_BUNDLER) || !shipped.contains("tcp_nodelay=\"true\"")) {
            throw new AssertionError("the default stack no longer has " + NO_BUNDLER
                    + " and tcp_nodelay=\"true\": update the variants");
        }
        List<StackVariant> variants = List.of(
                new StackVariant("shipped: no bundler, tcp_nodelay", shipped),
                new StackVariant("per-destination bundler (JGroups' default)",
                        shipped.replace(NO_BUNDLER, "bundler_type=\"per-destination\"")),
                new StackVariant("transfer-queue bundler",
                        shipped.replace(NO_BUNDLER, "bundler_type=\"transfer-queue\"")),
                new StackVariant("no bundler, no tcp_nodelay",
                        shipped.replace("tcp_nodelay=\"true\"", "tcp_nodelay=\"false\"")));
        List<String> report = new ArrayList<>();
        List<java.nio.file.Path> files = new ArrayList<>();
        try {
            roundTrip("default"); // JIT warm-up, not reported
            lockUnlock("default");
            for (StackVariant variant : variants) {
                java.nio.file.Path file = java.nio.file.Files.createTempFile("dlock-latency", ".xml");
                files.add(file);
                java.nio.file.Files.writeString(file, variant.xml());
                double[] rtt = roundTrip(file.toString());
                double[] lock = lockUnlock(file.toString());
                report.add(line("round trip, " + variant.label(), rtt));
                report.add(line("lock+unlock, " + variant.label(), lock));
                report.add(String.format(Locale.ROOT, "ratio lock+unlock / round trip, %s: p50 %.2f, mean %.2f",
                        variant.label(), lock[0] / rtt[0], lock[3] / rtt[3]));
            }
        } finally {
            for (java.nio.file.Path file : files) {
                java.nio.file.Files.deleteIfExists(file);
            }
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
        return String.format(Locale.ROOT, "%-48s p50 %7.1f us  p90 %7.1f us  p99 %7.1f us  mean %7.1f us  (%d)", what,
                s[0], s[1], s[2], s[3], (long) s[4]);
    }

    /** p50, p90, p99, mean in microseconds, and the number of samples. */
    private static double[] stats(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(Double.NaN);
        return new double[] {sorted[sorted.length / 2] / 1e3, sorted[sorted.length * 9 / 10] / 1e3,
                sorted[sorted.length * 99 / 100] / 1e3, mean / 1e3, sorted.length};
    }

    /** An operation to time. */
    @FunctionalInterface
    private interface Operation {
        void run() throws Exception;
    }

    /**
     * Runs {@code op} for a warm-up pass, then times each run of a measured pass; a pass ends after its count or
     * after {@link #PASS_NANOS}, whichever comes first.
     */
    private static double[] time(Operation op) throws Exception {
        long warmUpEnd = System.nanoTime() + PASS_NANOS;
        for (int i = 0; i < WARMUP && System.nanoTime() < warmUpEnd; i++) {
            op.run();
        }
        long[] t = new long[MEASURED];
        int done = 0;
        long end = System.nanoTime() + PASS_NANOS;
        while (done < MEASURED && System.nanoTime() < end) {
            long start = System.nanoTime();
            op.run();
            t[done++] = System.nanoTime() - start;
        }
        return stats(Arrays.copyOf(t, done));
    }

    private static double[] lockUnlock(String stack) throws Exception {
        try (JGroupsCluster cluster = new JGroupsCluster(3, JGroupsCluster.tcpTemplate(
                JGroupsCluster.base(MutexAlgorithm.CENTRALIZED), 3).set(JGroupsTransportFactory.STACK, stack))) {
            DistributedLock lock = cluster.node(0).lock("bench"); // n1; the coordinator is n3
            return time(() -> {
                lock.lock();
                lock.unlock();
            });
        }
    }

    /** n1 sends 8 bytes to n3, which echoes them; the time until n1 has the answer. */
    private static double[] roundTrip(String stack) throws Exception {
        DlockConfig.Builder template = JGroupsCluster.tcpTemplate(JGroupsCluster.base(MutexAlgorithm.CENTRALIZED), 3)
                .set(JGroupsTransportFactory.STACK, stack).cluster("rtt-" + UUID.randomUUID());
        SynchronousQueue<byte[]> answers = new SynchronousQueue<>();
        List<JGroupsTransport> transports = new ArrayList<>();
        try {
            for (int id = 1; id <= 3; id++) {
                JGroupsTransport t = JGroupsTransportFactory.newTransport(template.nodeId(id).build());
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
            return time(() -> {
                client.send(server, ping);
                if (answers.poll(5, TimeUnit.SECONDS) == null) {
                    throw new AssertionError("no echo");
                }
            });
        } finally {
            transports.forEach(JGroupsTransport::close);
        }
    }
}
