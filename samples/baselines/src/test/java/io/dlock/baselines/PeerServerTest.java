package io.dlock.baselines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.NodeLock;
import io.dlock.bench.PeerProtocol;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The jar's {@code --serve} protocol, on a peer made of one {@link ReentrantLock} per name: ready first, then exactly
 * one line per command (a row of the workload asked, on names of that command's own, or why the command is refused),
 * until {@code quit}.
 */
@Timeout(60)
class PeerServerTest {

    /** The names every node's locks were asked for, all nodes together. */
    private final Set<String> names = ConcurrentHashMap.newKeySet();

    private final Peer peer = new Peer() {
        @Override
        public String name() {
            return "fake";
        }

        @Override
        public String transport() {
            return "heap";
        }

        @Override
        public String algorithm() {
            return "ReentrantLock";
        }

        @Override
        public PeerCluster start(int nodes, int port) {
            Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
            return new PeerCluster() {
                @Override
                public NodeLock lock(int node, String name) {
                    names.add(name);
                    return NodeLock.of(locks.computeIfAbsent(name, n -> new ReentrantLock()));
                }

                @Override
                public void close() {
                }
            };
        }
    };

    private List<String> serve(String input) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PeerCluster cluster = peer.start(3, 0); PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            new PeerServer(peer, cluster, new BenchHarness(0.05, 0.1, 5), 3)
                    .serve(new BufferedReader(new StringReader(input)), print);
        }
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void readyThenOneAnswerPerCommandUntilQuit() throws Exception {
        List<String> lines = serve("uncontended\ncontended 2\nper-key 5 1\nper-key 5\nquit\ncontended 1\n");
        assertEquals(PeerProtocol.READY, lines.get(0));
        assertEquals(5, lines.size(), "ready, then one line per command, none after quit: " + lines);
        assertTrue(lines.get(1).contains("\"kind\": \"uncontended\", \"nodes\": 3, \"threads\": 1,"), lines.get(1));
        assertTrue(lines.get(2).contains("\"kind\": \"contended\", \"nodes\": 3, \"threads\": 2,"), lines.get(2));
        assertTrue(lines.get(3).contains("\"kind\": \"per-key\", \"nodes\": 3, \"threads\": 1,")
                && lines.get(3).contains("\"keys\": 5,"), lines.get(3));
        for (String row : lines.subList(1, 4)) {
            assertTrue(row.startsWith("{\"system\": \"fake\", \"transport\": \"heap\"") && row.contains("\"failures\": 0,"),
                    row);
        }
        assertTrue(lines.get(4).startsWith(PeerProtocol.REFUSED + "'per-key 5': expected uncontended"), lines.get(4));
    }

    @Test
    void everyCommandLocksNamesOfItsOwn() throws Exception {
        serve("contended 1\ncontended 1\n");
        assertEquals(Set.of("s1-contended-1", "s2-contended-1"), names,
                "the same workload asked twice does not find the first one's locks");
    }

    @Test
    void aBadNumberIsRefusedNotFatal() throws Exception {
        List<String> lines = serve("contended x\ncontended 0\ncontended 1\n");
        assertTrue(lines.get(1).startsWith(PeerProtocol.REFUSED + "'contended x'"), lines.get(1));
        assertTrue(lines.get(2).startsWith(PeerProtocol.REFUSED + "'contended 0'"), lines.get(2));
        assertFalse(lines.get(3).startsWith("#"), lines.get(3));
    }
}
