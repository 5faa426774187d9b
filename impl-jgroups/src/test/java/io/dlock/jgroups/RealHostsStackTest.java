package io.dlock.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code tcp} stack on real hosts: three {@link NetHosts} (network namespaces on a bridge, each with its own
 * address), one {@link StartChild} JVM per host, all on port 7800. Skipped, with the reason, where the machine has no
 * root or no {@code ip netns}.
 */
@Timeout(120)
class RealHostsStackTest {

    private static final int HOSTS = 3;

    /** On three hosts, every member's FD_SOCK2 is connected to its neighbour and has suspected nobody. */
    @Test
    void fdSock2_monitorsItsNeighbour_acrossHosts() throws Exception {
        assumeTrue(NetHosts.unavailable().isEmpty(), () -> NetHosts.unavailable().orElse(""));
        String cluster = "hosts-" + UUID.randomUUID();
        try (NetHosts hosts = NetHosts.create(HOSTS); Children children = new Children()) {
            StringBuilder initial = new StringBuilder();
            for (int i = 0; i < HOSTS; i++) {
                initial.append(i == 0 ? "" : ",").append(hosts.address(i)).append("[7800]");
            }
            List<Integer> nodes = new ArrayList<>();
            for (int i = 0; i < HOSTS; i++) {
                nodes.add(children.startOn(hosts.on(i), List.of("-Ddlock.test.bind-addr=" + hosts.address(i),
                        "-Ddlock.test.initial-hosts=" + initial), cluster, "tcp", "7800", "0", Integer.toString(i + 1),
                        "30000", "stay"));
            }
            for (int c : nodes) {
                children.await(c, "STARTED", 60);
            }
            Map<Integer, String> fd = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() - deadline < 0) {
                fd.clear();
                for (int c : nodes) {
                    children.tell(c, "fd?");
                    fd.put(c, children.await(c, "FD ", 10).text());
                }
                if (fd.values().stream().allMatch(s -> s.startsWith("FD CONNECTED"))) {
                    break;
                }
                Thread.sleep(500);
            }
            for (int c : nodes) {
                assertEquals("FD CONNECTED 0", fd.get(c), "FD_SOCK2 of node " + (c + 1) + " (state, suspicions): " + fd);
            }
        }
    }
}
