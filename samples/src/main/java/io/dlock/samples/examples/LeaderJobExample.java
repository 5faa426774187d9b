package io.dlock.samples.examples;

import io.dlock.DlockConfig;
import io.dlock.LeaderChange;
import io.dlock.LeaderElection;
import io.dlock.LockService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scheduled job that only the leader runs, driven by leader-change callbacks.
 *
 * <p>Every node has the job and a scheduler, but starts the job only when a {@link LeaderChange} says
 * it became the leader ({@code change.isSelf()}), and cancels it when a change names someone else. When
 * the leader leaves (here: its service is closed; in a real cluster: it crashes or is partitioned away)
 * the next leader's callback starts the job there. Callbacks come once per change, in epoch order, on a
 * library thread, so they must not block: they only schedule or cancel.
 *
 * <p>Run: {@code java -cp samples/target/dlock.jar io.dlock.samples.examples.LeaderJobExample}.
 */
public final class LeaderJobExample {

    private LeaderJobExample() {
    }

    /** One node: its service, its scheduler and the job's handle while it leads. */
    private static final class Node {
        final LockService service;
        final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        ScheduledFuture<?> job; // guarded by this

        Node(LockService service) {
            this.service = service;
        }

        /** The leader-change callback: start the job when this node leads, stop it otherwise. */
        synchronized void onChange(LeaderChange change, Runnable work) {
            if (change.isSelf() && job == null) {
                job = scheduler.scheduleAtFixedRate(work, 0, 50, TimeUnit.MILLISECONDS);
            } else if (!change.isSelf() && job != null) {
                job.cancel(false);
                job = null;
            }
        }

        void close() {
            scheduler.shutdownNow();
            service.close();
        }
    }

    /**
     * Starts three nodes, lets the leader run the job for {@code phaseMillis}, closes the leader, lets
     * the next leader run it for {@code phaseMillis}, and returns how often each node ran the job.
     */
    public static Map<String, Integer> run(long phaseMillis) throws InterruptedException {
        String cluster = "leaderjob-" + UUID.randomUUID();
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        List<Node> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(new Node(LockService.start(DlockConfig.builder().cluster(cluster).nodeId(i).build())));
            }
            // the group is created once every node is up; a group created on a lone node would elect it at once
            for (Node node : nodes) {
                String name = node.service.nodeId().toString();
                Runnable work = () -> runs.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
                LeaderElection election = node.service.election("nightly-report");
                election.addListener(change -> {
                    System.out.printf("%s: leader of '%s' is now %s (epoch %d)%n", name, change.group(),
                            change.leader(), change.epoch());
                    node.onChange(change, work);
                });
            }
            Thread.sleep(phaseMillis);
            Node leader = nodes.get(2); // the highest id leads
            System.out.println(leader.service.nodeId() + " leaves the cluster");
            leader.close();
            nodes.remove(leader);
            Thread.sleep(phaseMillis);
        } finally {
            nodes.forEach(Node::close);
        }
        Map<String, Integer> out = new TreeMap<>();
        runs.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Runs the example for about two seconds. */
    public static void main(String[] args) throws InterruptedException {
        Map<String, Integer> runs = run(1000);
        System.out.println("job runs per node: " + runs + " (n2 led, then n1; n0 never)");
    }
}
