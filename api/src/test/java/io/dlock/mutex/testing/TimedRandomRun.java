package io.dlock.mutex.testing;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A seeded random run on a {@link Cluster} for algorithms with timers (token recovery): requests,
 * releases and deliveries as in {@link Cluster#randomStep}, plus timers fired at random moments
 * (early, i.e. aggressive timeouts, with probability {@code earlyTimerProbability} per step, and
 * whenever nothing else can happen) and messages of one type lost with probability
 * {@code lossProbability} when delivered.
 */
public final class TimedRandomRun {

    private TimedRandomRun() {
    }

    /**
     * Runs until no request, release, delivery or timer is left, or {@code maxSteps}. A request still
     * waiting at the end is recorded in the cluster as an ME3 violation.
     *
     * @param lossType the message class that may be lost (e.g. the token), or null
     * @return whether the run ended with nothing left to do and every request of every node granted
     *         ({@code requestsPerNode} entries per member); false if it hit {@code maxSteps} or a
     *         request was never granted
     */
    public static <M extends ProtocolMessage> boolean run(Cluster<M> cluster, Random random, int requestsPerNode,
                                                          double earlyTimerProbability, Class<?> lossType,
                                                          double lossProbability, int maxSteps) {
        Map<NodeId, Integer> budget = new TreeMap<>();
        for (NodeId n : cluster.members()) {
            budget.put(n, requestsPerNode);
        }
        for (int step = 0; step < maxSteps; step++) {
            if (lossType != null && random.nextDouble() < lossProbability) {
                for (Cluster.Envelope<M> e : cluster.inFlight()) {
                    if (lossType.isInstance(e.message())) {
                        cluster.drop(e);
                        break;
                    }
                }
            }
            if (random.nextDouble() < earlyTimerProbability && fireRandomTimer(cluster, random)) {
                continue;
            }
            if (cluster.randomStep(random, budget, false, 0)) {
                continue;
            }
            if (!fireRandomTimer(cluster, random)) {
                cluster.checkNobodyWaits();
                long requested = (long) requestsPerNode * budget.size()
                        - budget.values().stream().mapToLong(Integer::longValue).sum();
                return budget.values().stream().allMatch(left -> left == 0)
                        && cluster.entries().size() == requested;
            }
        }
        return false;
    }

    private static <M extends ProtocolMessage> boolean fireRandomTimer(Cluster<M> cluster, Random random) {
        List<long[]> running = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (NodeId n : cluster.view().members()) { // ascending: Set.copyOf's order changes from JVM to JVM
            for (String name : new java.util.TreeSet<>(cluster.timers(n.value()).keySet())) {
                running.add(new long[] {n.value()});
                names.add(name);
            }
        }
        if (running.isEmpty()) {
            return false;
        }
        int k = random.nextInt(running.size());
        cluster.fireTimer(running.get(k)[0], names.get(k));
        return true;
    }
}
