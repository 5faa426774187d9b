package io.dlock.jgroups;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Membership figures on a real network: five {@link NetHosts} (network namespaces on a bridge), one
 * {@link StartChild} JVM per host on the {@code tcp} stack, a seeded series of faults: a host cut off for 10-25 s
 * and healed, a process killed (SIGKILL) and restarted with its dlock.node.id after 3-10 s, and a cut whose heal is
 * followed 0.5-3 s later by a kill and restart (a restart while the cluster merges). Prints, per fault, the time from
 * the heal until every node has the same five-member view, how far apart the nodes got that view, and each restart's
 * start time or failure ({@code NETFAULT} lines); fails if a restart failed to start. A measurement, not part of the
 * default build: {@code -Ddlock.test.net-faults=N}, with {@code -Ddlock.test.net-seed=S} and
 * {@code -Ddlock.test.net-stack=<stack file>} (instead of {@code tcp}), {@code -Ddlock.test.net-kinds} (some of
 * {@code cut,kill,cut-kill}) and {@code -Ddlock.test.net-jvm-options} (more options for the children, separated by
 * spaces). Needs root and {@code ip netns}.
 */
class NetFaultsTest {

    private static final int HOSTS = 5;
    private static final long MERGE_WAIT_S = 150;

    /** What each live node last reported: its view's epoch and size, and when the test read it. */
    private record Seen(long epoch, int size, long nanos) {
    }

    private final Map<Integer, Integer> nodeOfChild = new HashMap<>();
    private final Map<Integer, Seen> latest = new HashMap<>();
    /** For each node, when it first reported each epoch. */
    private final Map<Integer, Map<Long, Long>> firstSeen = new HashMap<>();
    private final Map<Integer, String> startLine = new HashMap<>();

    /** Cuts, kills and restarts on five hosts; every restart starts. */
    @Test
    @EnabledIfSystemProperty(named = "dlock.test.net-faults", matches = "[0-9]+")
    @Timeout(14_400)
    void faults_onFiveHosts_everyRestartStarts() throws Exception {
        assumeTrue(NetHosts.unavailable().isEmpty(), () -> NetHosts.unavailable().orElse(""));
        int faults = Integer.getInteger("dlock.test.net-faults");
        long seed = Long.getLong("dlock.test.net-seed", System.nanoTime());
        String stack = System.getProperty("dlock.test.net-stack", "tcp");
        Random random = new Random(seed);
        String cluster = "net-" + UUID.randomUUID();
        List<String> failures = new ArrayList<>();
        System.out.println("NETFAULT seed " + seed + " stack " + stack);
        try (NetHosts hosts = NetHosts.create(HOSTS); Children children = new Children()) {
            StringBuilder initial = new StringBuilder();
            for (int i = 0; i < HOSTS; i++) {
                initial.append(i == 0 ? "" : ",").append(hosts.address(i)).append("[7800]");
            }
            int[] child = new int[HOSTS + 1];
            for (int n = 1; n <= HOSTS; n++) {
                child[n] = launch(children, hosts, n, initial.toString(), cluster, stack);
            }
            for (int n = 1; n <= HOSTS; n++) {
                awaitStart(children, n, 60);
            }
            long merged = awaitMerged(children, System.nanoTime());
            System.out.println("NETFAULT initial merge " + (merged < 0 ? "none" : merged + " ms"));
            List<Integer> kinds = new ArrayList<>();
            for (String k : System.getProperty("dlock.test.net-kinds", "cut,kill,cut-kill").split(",")) {
                kinds.add(List.of("cut", "kill", "cut-kill").indexOf(k.trim()));
            }
            System.out.println("NETFAULT hosts " + hosts.namespace(0) + "...");
            for (int f = 0; f < faults; f++) {
                int kind = kinds.get(random.nextInt(kinds.size()));
                int victim = 1 + random.nextInt(HOSTS);
                String what;
                long from;
                if (kind == 0 || kind == 2) {
                    long cutMs = 10_000 + random.nextInt(15_001);
                    hosts.cut(victim - 1);
                    System.out.println("NETFAULT " + java.time.LocalTime.now() + " cut host " + victim);
                    pump(children, cutMs);
                    hosts.heal(victim - 1);
                    System.out.println("NETFAULT " + java.time.LocalTime.now() + " healed host " + victim);
                    from = System.nanoTime();
                    what = "cut " + victim + " for " + cutMs + " ms";
                    if (kind == 2) {
                        pump(children, 500 + random.nextInt(2_501));
                        int killed = 1 + random.nextInt(HOSTS);
                        what += ", then kill " + killed + " " + restart(children, hosts, child, killed, random, initial.toString(),
                                cluster, stack, failures);
                    }
                } else {
                    from = System.nanoTime();
                    what = "kill " + victim + " " + restart(children, hosts, child, victim, random, initial.toString(),
                            cluster, stack, failures);
                }
                long ms = awaitMerged(children, from);
                System.out.println("NETFAULT " + (f + 1) + ": " + what + "; one 5-member view " + (ms < 0 ? "NOT within "
                        + MERGE_WAIT_S + " s" : ms + " ms after the heal/kill, " + skew() + " ms apart"));
                if (ms < 0) {
                    failures.add("fault " + (f + 1) + " (" + what + "): no common view within " + MERGE_WAIT_S + " s");
                    awaitMerged(children, System.nanoTime());
                }
            }
        }
        System.out.println("NETFAULT failures: " + failures);
        assertTrue(failures.stream().noneMatch(s -> s.contains("start")), failures.toString());
    }

    private int launch(Children children, NetHosts hosts, int node, String initial, String cluster, String stack)
            throws Exception {
        List<String> jvm = new ArrayList<>(List.of("-Ddlock.test.bind-addr=" + hosts.address(node - 1),
                "-Ddlock.test.initial-hosts=" + initial));
        String more = System.getProperty("dlock.test.net-jvm-options", "").trim();
        if (!more.isEmpty()) {
            jvm.addAll(List.of(more.split("\\s+")));
        }
        int c = children.startOn(hosts.on(node - 1), jvm, cluster, stack, "7800", "0", Integer.toString(node), "30000",
                "stay");
        nodeOfChild.put(c, node);
        latest.remove(node);
        firstSeen.remove(node);
        startLine.remove(node);
        return c;
    }

    /** Kills {@code node}, starts it again after 3-10 s and waits for its start; returns what happened. */
    private String restart(Children children, NetHosts hosts, int[] child, int node, Random random, String initial,
                           String cluster, String stack, List<String> failures) throws Exception {
        long downMs = 3_000 + random.nextInt(7_001);
        children.kill(child[node]);
        nodeOfChild.remove(child[node]);
        latest.remove(node);
        pump(children, downMs);
        child[node] = launch(children, hosts, node, initial, cluster, stack);
        String line = awaitStart(children, node, 60);
        if (!line.startsWith("STARTED")) {
            failures.add("restart of node " + node + ": " + line);
            child[node] = launch(children, hosts, node, initial, cluster, stack);
            awaitStart(children, node, 60);
        }
        return "(down " + downMs + " ms): " + line;
    }

    private String awaitStart(Children children, int node, long timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (!startLine.containsKey(node) && System.nanoTime() - deadline < 0) {
            pump(children, 100);
        }
        return startLine.getOrDefault(node, "NO START LINE within " + timeoutS + " s");
    }

    /** Ms from {@code from} until every live node has the same 5-member view, or -1. */
    private long awaitMerged(Children children, long from) throws InterruptedException {
        long deadline = from + TimeUnit.SECONDS.toNanos(MERGE_WAIT_S);
        while (System.nanoTime() - deadline < 0) {
            if (latest.size() == HOSTS && latest.values().stream().allMatch(s -> s.size == HOSTS)
                    && latest.values().stream().map(Seen::epoch).distinct().count() == 1) {
                long last = latest.values().stream().mapToLong(Seen::nanos).max().orElse(from);
                return TimeUnit.NANOSECONDS.toMillis(Math.max(0, last - from));
            }
            pump(children, 100);
        }
        return -1;
    }

    /** How far apart (ms) the nodes first reported their current common view. */
    private long skew() {
        long epoch = latest.values().iterator().next().epoch;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int node : latest.keySet()) {
            Long t = firstSeen.getOrDefault(node, Map.of()).get(epoch);
            if (t != null) {
                min = Math.min(min, t);
                max = Math.max(max, t);
            }
        }
        return min == Long.MAX_VALUE ? -1 : TimeUnit.NANOSECONDS.toMillis(max - min);
    }

    /** Reads the children's lines for {@code ms}. */
    private void pump(Children children, long ms) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            Children.Line l = children.poll(Math.max(0, left));
            if (l != null) {
                take(l);
            }
            if (System.nanoTime() - end >= 0) {
                return;
            }
        }
    }

    private void take(Children.Line l) {
        Integer node = nodeOfChild.get(l.child());
        if (node == null) {
            return; // a killed incarnation's last words
        }
        String t = l.text();
        if (t.startsWith("STARTED") || t.startsWith("FAILED")) {
            startLine.put(node, t);
        }
        String[] p = t.split(" ", 4);
        long epoch;
        String members;
        if (t.startsWith("STARTED ")) {
            epoch = Long.parseLong(p[2]);
            members = p[3];
        } else if (t.startsWith("VIEW ")) {
            p = t.split(" ", 3);
            epoch = Long.parseLong(p[1]);
            members = p[2];
        } else {
            return;
        }
        int size = members.split(",").length;
        latest.put(node, new Seen(epoch, size, l.nanos()));
        firstSeen.computeIfAbsent(node, k -> new HashMap<>()).putIfAbsent(epoch, l.nanos());
    }
}
