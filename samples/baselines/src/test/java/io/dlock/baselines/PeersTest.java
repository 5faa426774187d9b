package io.dlock.baselines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.NodeLock;
import io.dlock.bench.PeerProtocol;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every peer that can run on this machine, on a tiny workload: its lock excludes (a counter incremented under it by
 * several threads on every node ends at the number of increments) and its run gives one row per workload, naming the
 * peer. A peer whose server is not installed is skipped with its one-line message, not failed. Nothing here is about
 * speed.
 */
class PeersTest {

    private static final int NODES = 3;
    private static final int THREADS = 3;
    private static final int ROUNDS = 20;

    static List<String> peers() {
        return Peers.names();
    }

    @ParameterizedTest
    @MethodSource("peers")
    @Timeout(300)
    void excludesAndReportsEveryWorkload(String name) throws Exception {
        Peer peer = Peers.named(name).orElseThrow();
        Optional<String> unavailable = peer.unavailable();
        assumeTrue(unavailable.isEmpty(), () -> PeerProtocol.SKIPPED + name + ": " + unavailable.orElseThrow());
        try (PeerCluster cluster = peer.start(NODES, freePortBlock(Peer.PORTS))) {
            int[] counter = new int[1];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int node = 0; node < NODES; node++) {
                NodeLock lock = cluster.lock(node, "exclusion");
                for (int t = 0; t < THREADS; t++) {
                    Thread w = new Thread(() -> {
                        try {
                            for (int i = 0; i < ROUNDS; i++) {
                                assertTrue(lock.tryLock(60), "lock granted within 60 s");
                                try {
                                    int seen = counter[0]; // a lost update if two threads are inside at once
                                    Thread.yield();
                                    counter[0] = seen + 1;
                                } finally {
                                    lock.unlock();
                                }
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
                    threads.add(w);
                    w.start();
                }
            }
            for (Thread w : threads) {
                w.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(name + ": a worker failed", failure.get());
            }
            assertEquals(NODES * THREADS * ROUNDS, counter[0], name + ": increments lost under the lock");

            List<String> rows = new PeerWorkloads(peer, cluster, new BenchHarness(0, 0.1, 60), NODES, "")
                    .run(List.of(1, 2), List.of(10));
            assertEquals(5, rows.size(), rows.toString());
            List<String> kinds = List.of("uncontended", "contended", "contended", "per-key", "per-key");
            for (int i = 0; i < rows.size(); i++) {
                String row = rows.get(i);
                assertTrue(row.contains("\"system\": \"" + name + "\""), row);
                assertTrue(row.contains("\"kind\": \"" + kinds.get(i) + "\""), row);
                assertTrue(row.contains("\"failures\": 0,"), row);
            }
            assertTrue(rows.get(3).contains("\"keys\": 10,"), rows.get(3));
        }
    }

    /** A missing server is a message naming it and the Debian package to install, not an exception. */
    @Test
    void missingServerSaysHowToInstallIt() {
        ServerBinary absent = new ServerBinary("no-such-server-dlock-test", "no-such-package");
        assertTrue(absent.find().isEmpty());
        String message = absent.missing().orElseThrow();
        assertTrue(message.contains("no-such-server-dlock-test") && message.contains("apt-get install no-such-package"),
                message);
        assertTrue(assertThrows(IllegalStateException.class, absent::require).getMessage().contains("apt-get install"));
        assertEquals(Optional.empty(), new ServerBinary("sh", "dash").missing(), "sh is on every PATH");
    }

    /** A server's CPU time is utime + stime of /proc/PID/stat, counted after the command name's parenthesis. */
    @Test
    void cpuTimeFromProcStat() {
        String stat = "4242 (redis server) S 1 4242 4242 0 -1 4194560 1234 0 0 0 150 25 0 0 20 0 5 0 100 0";
        assertEquals(175 * 10_000_000L, ServerProcess.parseStat(stat));
        assertThrows(IllegalArgumentException.class, () -> ServerProcess.parseStat("4242 (x) S 1 2"));
        assertTrue(ServerProcess.cpuNanos(ProcessHandle.current().pid()) >= 0, "this JVM's own stat reads");
        assertEquals(-1, ServerProcess.cpuNanos(Long.MAX_VALUE));
    }

    /** Every peer has its own name, and the jar's names are the ones the bench asks for. */
    @Test
    void peersHaveDistinctNames() {
        assertEquals(Peers.ALL.size(), Peers.names().stream().distinct().count());
        assertTrue(Peers.named("hazelcast").isPresent());
        assertFalse(Peers.named("no-such-peer").isPresent());
    }

    /** The first of {@code count} consecutive TCP ports on 127.0.0.1 that are all free now. */
    static int freePortBlock(int count) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                base = probe.getLocalPort();
            }
            if (base + count > 65_000) {
                continue;
            }
            boolean free = true;
            for (int p = base; p < base + count && free; p++) {
                try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                    s.setReuseAddress(true);
                } catch (IOException taken) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no block of " + count + " free ports on 127.0.0.1 in 50 attempts");
    }
}
