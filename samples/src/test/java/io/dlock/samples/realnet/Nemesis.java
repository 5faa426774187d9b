package io.dlock.samples.realnet;

import io.dlock.samples.realnet.NemesisSchedule.Fault;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Applies a {@link NemesisSchedule} to a {@link RealNetCluster} of {@link NemesisNode}s on {@link VirtualHosts},
 * one fault after the other, each healed before its quiet gap and the next fault, and records what it does as
 * history lines of the process {@value #PROCESS}, timed with {@code System.nanoTime()} like the nodes' lines:
 * <pre>
 * begin kind targets majority nodes   (right before the fault's first action)
 * end kind targets                    (right after its last healing action: SIGCONT, port up, bridges merged,
 *                                      the last launch)
 * crash node                          (right after a kill -9 of node's JVM has ended it)
 * </pre>
 * Targets and nodes are comma-separated node ids. The majority is the side expected to go on granting during
 * the fault: the other four nodes for a pause, a cut or a kill, the three left on the first bridge for a split,
 * and every node for a rolling restart and a coordinator's leave (clean leaves, one or three nodes away at a
 * time, the others a majority of {@code dlock.cluster.size}). For a coordinator's leave the targets are the two
 * nodes stopped first, then the coordinator.
 *
 * <p>Every wait is bounded: a node gets {@link #START_TIMEOUT} to print {@code started} after a launch, and
 * {@link RealNetCluster#stop} 20 s to leave before it is killed (then recorded as a crash). What did not happen
 * in time is kept as a note ({@link #notes}) and the schedule goes on. {@link #healAll} and {@link #stopAll} end
 * a run: every port up, one bridge, every process resumed, then every client asked to leave at once.
 */
final class Nemesis {

    /** The process name of the nemesis's own history lines. */
    static final String PROCESS = "nemesis";
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** How long a cluster that has started may take to grant the lock for the first time. */
    static final Duration FIRST_GRANT_TIMEOUT = Duration.ofSeconds(20);
    /** How long the cluster works undisturbed after its first grant, before the first fault. */
    static final Duration WARM_UP = Duration.ofSeconds(2);

    private final VirtualHosts hosts;
    private final RealNetCluster cluster;
    private final int nodes;
    private final String name;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    /** Per node, the history size when it was last launched: its started line comes after. */
    private final int[] launchIndex;

    /** A nemesis over {@code cluster} on {@code hosts}; {@code name} starts its printed lines. */
    Nemesis(VirtualHosts hosts, RealNetCluster cluster, int nodes, String name) {
        this.hosts = hosts;
        this.cluster = cluster;
        this.nodes = nodes;
        this.name = name;
        this.launchIndex = new int[nodes + 1];
    }

    /**
     * Launches every node at once and waits (bounded) until each has started, then until the lock has been
     * granted ({@link #FIRST_GRANT_TIMEOUT}, noted if not) and {@link #WARM_UP} more, so that the first fault hits
     * a cluster at work; false if a node did not start.
     */
    boolean startAll() throws IOException, InterruptedException {
        for (int n = 1; n <= nodes; n++) {
            launch(n);
        }
        boolean all = true;
        for (int n = 1; n <= nodes; n++) {
            all &= awaitStarted(n);
        }
        if (all) {
            if (cluster.awaitHistory(0, l -> l.contains(" granted "), FIRST_GRANT_TIMEOUT) == null) {
                note("no grant within " + FIRST_GRANT_TIMEOUT.toSeconds() + " s of the last start; the faults begin"
                        + " anyway (each node's view and lock counters are in the logs)");
                for (int n = 1; n <= nodes; n++) {
                    cluster.send(n, "metrics");
                }
            }
            Thread.sleep(WARM_UP.toMillis());
        }
        return all;
    }

    /** The quiet time after the last fault at least: the rejoin goal (10 s) and a margin. */
    static final long LAST_SETTLE_MS = 12_000;

    /**
     * Runs the faults of {@code schedule} in order, each followed by its quiet gap; a fault that would begin
     * after {@code deadlineNanos} is skipped with the rest (noted).
     */
    void run(NemesisSchedule schedule, long deadlineNanos) throws IOException, InterruptedException {
        List<Fault> faults = schedule.faults();
        for (int i = 0; i < faults.size(); i++) {
            if (System.nanoTime() - deadlineNanos > 0) {
                note("the run's deadline passed: faults " + (i + 1) + " to " + faults.size() + " skipped");
                return;
            }
            Fault f = faults.get(i);
            long t0 = System.nanoTime();
            apply(f);
            System.out.println("NEMESIS " + name + " fault " + (i + 1) + "/" + faults.size() + " " + f
                    + ": healed after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms");
            // after the last fault, long enough to see the healed hosts rejoin (or not) before the clients stop
            Thread.sleep(i == faults.size() - 1 ? Math.max(f.gapMs(), LAST_SETTLE_MS) : f.gapMs());
        }
    }

    private void apply(Fault f) throws IOException, InterruptedException {
        String kind = f.kind().configName();
        List<Integer> targets = f.targets();
        switch (f.kind()) {
            case PAUSE -> {
                int n = targets.get(0);
                begin(kind, targets, others(targets));
                cluster.signal(n, "STOP");
                Thread.sleep(f.lengthMs());
                cluster.signal(n, "CONT");
                end(kind, targets);
            }
            case CUT -> {
                int n = targets.get(0);
                begin(kind, targets, others(targets));
                hosts.cut(n - 1);
                Thread.sleep(f.lengthMs());
                hosts.heal(n - 1);
                end(kind, targets);
            }
            case SPLIT -> {
                begin(kind, targets, others(targets));
                hosts.split(targets.stream().map(n -> n - 1).collect(Collectors.toSet()));
                Thread.sleep(f.lengthMs());
                hosts.mergeSplit();
                end(kind, targets);
            }
            case KILL -> {
                int n = targets.get(0);
                begin(kind, targets, others(targets));
                cluster.kill(n);
                record("crash " + n);
                Thread.sleep(f.lengthMs());
                launch(n);
                end(kind, targets);
                awaitStarted(n);
            }
            case ROLLING_RESTART -> {
                begin(kind, targets, all());
                for (int n : targets) {
                    stop(n);
                    launch(n);
                    awaitStarted(n);
                }
                end(kind, targets);
            }
            case COORDINATOR_LEAVE -> {
                int coordinator = longestRunning(targets);
                List<Integer> all = new ArrayList<>(targets);
                all.add(coordinator);
                begin(kind, all, all());
                for (int n : targets) {
                    stop(n);
                }
                for (int n : targets) {
                    launch(n);
                }
                stop(coordinator);
                launch(coordinator);
                end(kind, all);
                for (int n : all) {
                    awaitStarted(n);
                }
            }
        }
    }

    /** Every port up, one bridge, every process resumed; for the end of a run, also after a failure. */
    void healAll() throws IOException, InterruptedException {
        hosts.mergeSplit();
        for (int n = 1; n <= nodes; n++) {
            hosts.heal(n - 1);
            if (cluster.isAlive(n)) {
                cluster.signal(n, "CONT");
            }
        }
    }

    /**
     * Asks every running client to leave at once (each finishes its round, so no hold stays open) and waits
     * for each; one that does not end within 20 s is killed and recorded as a crash.
     */
    void stopAll() throws InterruptedException {
        for (int n = 1; n <= nodes; n++) {
            if (cluster.isAlive(n)) {
                cluster.send(n, "exit");
            }
        }
        for (int n = 1; n <= nodes; n++) {
            if (cluster.isAlive(n)) {
                stop(n);
            }
        }
    }

    /** The nemesis's history lines so far. */
    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** What did not happen in time (a start, a clean stop, the deadline), in order. */
    List<String> notes() {
        synchronized (notes) {
            return List.copyOf(notes);
        }
    }

    private void launch(int n) throws IOException {
        launchIndex[n] = cluster.historySize();
        cluster.start(n);
    }

    /** Waits until node {@code n}'s current incarnation has printed started or startfail; false if not started. */
    private boolean awaitStarted(int n) throws InterruptedException {
        String jvm = " " + n + "." + cluster.incarnation(n) + ".0 ";
        String line = cluster.awaitHistory(launchIndex[n],
                l -> l.contains(jvm + "started") || l.contains(jvm + "startfail"), START_TIMEOUT);
        if (line == null) {
            note("n" + n + "." + cluster.incarnation(n) + " did not finish LockService.start within "
                    + START_TIMEOUT.toSeconds() + " s");
            return false;
        }
        return line.contains(jvm + "started");
    }

    /** Stops node {@code n} cleanly; if it had to be killed, records the crash. */
    private void stop(int n) throws InterruptedException {
        if (!cluster.isAlive(n)) {
            return;
        }
        if (!cluster.stop(n)) {
            record("crash " + n);
            note("n" + n + "." + cluster.incarnation(n) + " did not leave within 20 s of exit and was killed");
        }
    }

    /** The node launched longest ago apart from {@code except}: the JGroups coordinator, the oldest member. */
    private int longestRunning(List<Integer> except) {
        int oldest = -1;
        for (int n = 1; n <= nodes; n++) {
            if (!except.contains(n) && (oldest < 0 || cluster.launchedNanos(n) - cluster.launchedNanos(oldest) < 0)) {
                oldest = n;
            }
        }
        return oldest;
    }

    private void begin(String kind, List<Integer> targets, List<Integer> majority) {
        record("begin " + kind + " " + join(targets) + " majority " + join(majority));
    }

    private void end(String kind, List<Integer> targets) {
        record("end " + kind + " " + join(targets));
    }

    private void record(String op) {
        lines.add(System.nanoTime() + " " + PROCESS + " " + op);
    }

    private void note(String note) {
        notes.add(note);
        System.out.println("NEMESIS " + name + " note: " + note);
    }

    private List<Integer> others(List<Integer> targets) {
        Set<Integer> t = new TreeSet<>(targets);
        return IntStream.rangeClosed(1, nodes).filter(n -> !t.contains(n)).boxed().toList();
    }

    private List<Integer> all() {
        return IntStream.rangeClosed(1, nodes).boxed().toList();
    }

    private static String join(List<Integer> nodes) {
        return nodes.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
