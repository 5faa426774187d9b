package io.dlock.samples.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.contract.ChildJvms;
import io.dlock.contract.ChildJvms.Line;
import io.dlock.contract.LoopbackPorts;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link SpringBootExample} as three Spring Boot applications in child JVMs over JGroups ({@code tcp} stack on
 * 127.0.0.1, node ids 1 to 3), as its README runs them by hand, for half a minute of {@link ReportJob} ticks. From their
 * logs: every tick of that time ran on exactly one instance, with fencing tokens growing from tick to tick, except
 * that a tick may run nowhere while a killed instance's hold is being taken back (from the kill to the next tick that
 * runs); the election leader job runs on the leader (node 3, the highest id), and after node 3 is killed with SIGKILL
 * it runs on node 2, while the report job goes on once per tick on the survivors; the registry leader job (Spring's
 * {@code LockRegistryLeaderInitiator} on dlock's registry) moves to a survivor when its node is killed (if that is not
 * node 3, it is killed first and restarted before node 3 is). Every child is killed after the test.
 */
@Timeout(240)
class SpringBootExampleJvmTest {

    private static final int NODES = 3;
    /** How long the report job is watched, from its first tick with every instance up. */
    private static final long WATCHED_S = 30;
    private static final long LINE_TIMEOUT_S = 60;
    private static final Pattern REPORT = Pattern.compile("report tick (\\d+) ran on node (\\d+) with fencing token (\\d+)");
    private static final Pattern ELECTION_RUN = Pattern.compile("election leader job run \\d+ on node (\\d+)");
    private static final Pattern REGISTRY_RUN = Pattern.compile("registry leader job run \\d+ on node (\\d+)");
    /** How many of the children's last lines a failure shows. */
    private static final int RECENT_LINES = 40;

    private final ChildJvms children = new ChildJvms();
    /** Tick (epoch second) to the nodes that ran it, in arrival order. */
    private final TreeMap<Long, List<Integer>> ticks = new TreeMap<>();
    /** Tick to the fencing token of its run(s). */
    private final TreeMap<Long, Long> tokens = new TreeMap<>();
    /** The children's last lines, for the failure messages. */
    private final Deque<String> recent = new ArrayDeque<>();

    @AfterEach
    void killAll() throws InterruptedException {
        children.close();
    }

    @Test
    void reportRunsOncePerTickAndLeaderJobsMoveWhenTheirLeaderDies() throws Exception {
        port = LoopbackPorts.freeBlock(NODES);
        for (int node = 1; node <= NODES; node++) {
            startInstance(node);
        }

        // the election leader job runs on node 3, the registry one somewhere, and the report job has run a few
        // ticks with every node up
        readUntil(l -> runOn(ELECTION_RUN, l) == NODES);
        int[] registryLeader = new int[1];
        readUntil(l -> (registryLeader[0] = runOn(REGISTRY_RUN, l)) > 0);
        long firstStableTick = nextTickSeen();
        readUntil(l -> ticks.keySet().stream().filter(t -> t >= firstStableTick).count() >= 3);
        long lastTickBeforeKill = lastTick();

        System.out.println("registry leader: node " + registryLeader[0] + (registryLeader[0] == NODES
                ? ", killed with the election's leader" : ", killed and restarted before the election's leader"));
        List<Long> killedAt = new ArrayList<>();
        if (registryLeader[0] != NODES) {
            // the registry's leader alone dies: its job moves to a survivor; then it comes back
            int dead = registryLeader[0];
            killedAt.add(epochSecond());
            children.kill(dead);
            readUntil(l -> runOn(REGISTRY_RUN, l) > 0 && l.node() != dead);
            startInstance(dead);
            readUntil(l -> l.node() == dead && l.text().contains("Started SpringBootExample"));
        }
        int registryLeaderBeforeKill = registryLeader[0] == NODES ? NODES : -1;
        killedAt.add(epochSecond());
        children.kill(NODES);
        readUntil(l -> runOn(ELECTION_RUN, l) == NODES - 1);
        if (registryLeaderBeforeKill == NODES) {
            readUntil(l -> runOn(REGISTRY_RUN, l) > 0 && l.node() != NODES);
        }
        long lastTick = lastTick();
        readUntil(l -> ticks.keySet().stream().filter(t -> t > lastTick + ReportJob.PERIOD_S).count() >= 2);
        // half a minute of ticks in all, the last on the survivors after the kills
        readUntil(l -> lastTick() >= firstStableTick + WATCHED_S);

        System.out.println("report ticks watched: " + ticks.subMap(firstStableTick, true, lastTick(), true).size()
                + " of " + ((lastTick() - firstStableTick) / ReportJob.PERIOD_S + 1) + " from " + firstStableTick
                + " to " + lastTick() + ", kills at " + killedAt + "; ran on " + ticks);
        ticks.forEach((tick, nodes) -> assertEquals(1, nodes.size(), "tick " + tick + " ran on nodes " + nodes));
        for (long t = firstStableTick; t <= lastTick(); t += ReportJob.PERIOD_S) {
            assertTrue(ticks.containsKey(t) || inTakeOver(t, killedAt), "tick " + t + " ran nowhere, and no kill "
                    + "was being recovered from (kills at " + killedAt + "): " + ticks);
        }
        assertTrue(ticks.subMap(firstStableTick, true, lastTickBeforeKill, true).size()
                == (lastTickBeforeKill - firstStableTick) / ReportJob.PERIOD_S + 1, "every tick ran while every "
                + "instance was up: " + ticks);
        List<Long> inTickOrder = new ArrayList<>(tokens.values());
        for (int i = 1; i < inTickOrder.size(); i++) {
            assertTrue(inTickOrder.get(i) > inTickOrder.get(i - 1), "fencing tokens by tick: " + tokens);
        }
    }

    private int port;

    /** Starts instance {@code node} of the three (again, after a kill: the same id and port). */
    private void startInstance(int node) throws java.io.IOException {
        StringBuilder hosts = new StringBuilder();
        for (int n = 1; n <= NODES; n++) {
            hosts.append(n > 1 ? "," : "").append("127.0.0.1[").append(port + n - 1).append(']');
        }
        children.start(node, List.of(), SpringBootExample.class.getName(), List.of(
                "--dlock.node.id=" + node, "--dlock.jgroups.port=" + (port + node - 1),
                "--dlock.jgroups.initial-hosts=" + hosts, "--dlock.cluster=spring-boot-example-" + port));
    }

    /** Reads the children's lines, recording the report job's runs, until {@code done} holds for one. */
    private void readUntil(Predicate<Line> done) throws InterruptedException {
        while (true) {
            Line line = children.poll(LINE_TIMEOUT_S);
            if (line == null) {
                fail("no output from the instances for " + LINE_TIMEOUT_S + " s; ticks so far: " + ticks
                        + "; their last lines:\n" + String.join("\n", recent));
            }
            recent.addLast("node " + line.node() + ": " + line.text());
            if (recent.size() > RECENT_LINES) {
                recent.removeFirst();
            }
            Matcher report = REPORT.matcher(line.text());
            if (report.find()) {
                long tick = Long.parseLong(report.group(1));
                assertEquals(line.node(), Integer.parseInt(report.group(2)), line.text());
                ticks.computeIfAbsent(tick, t -> new ArrayList<>()).add(line.node());
                tokens.put(tick, Long.parseLong(report.group(3)));
            }
            if (done.test(line)) {
                return;
            }
        }
    }

    /** The node on which {@code line} says the job of {@code pattern} ran, or 0. */
    private static int runOn(Pattern pattern, Line line) {
        Matcher m = pattern.matcher(line.text());
        if (!m.find()) {
            return 0;
        }
        assertEquals(line.node(), Integer.parseInt(m.group(1)), line.text());
        return line.node();
    }

    /** The first tick that runs from now on. */
    private long nextTickSeen() throws InterruptedException {
        long last = ticks.isEmpty() ? Long.MIN_VALUE : lastTick();
        readUntil(l -> !ticks.isEmpty() && lastTick() > last);
        return lastTick();
    }

    private long lastTick() {
        return ticks.lastKey();
    }

    /**
     * Whether a tick at {@code t} came after a kill and before the first tick that ran after that kill. Ticks and
     * kills are timed to the second, so a tick of the kill's own second may have run before the kill, on the node
     * then killed (seen: tick 50 on node 2, node 2 killed at 50, tick 52 nowhere, tick 54 on node 1): the first tick
     * after the kill is the first of a later second.
     */
    private boolean inTakeOver(long t, List<Long> killedAt) {
        for (long kill : killedAt) {
            Long firstAfter = ticks.higherKey(kill);
            if (t >= kill - ReportJob.PERIOD_S && (firstAfter == null || t < firstAfter)) {
                return true;
            }
        }
        return false;
    }

    private static long epochSecond() {
        return System.currentTimeMillis() / 1000;
    }
}
