package io.dlock.mutex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.mutex.common.CensusCarrier;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.testing.Cluster;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The token census as every token algorithm runs it: its cost (3(N-1) messages per view change, one
 * HELLO more when a lock is first used by a member that is not the steward); a token lost with the
 * old epoch, a holder that leaves and a lock created on first use, each ending with exactly one
 * token; and a member that leaves and comes back as a new node under the same id (a restarted
 * node), which the census must not take for the old instance.
 */
class TokenAlgorithmsCensusTest {

    static Stream<MutexAlgorithm> tokenAlgorithms() {
        return Stream.of(MutexAlgorithm.values()).filter(a -> AlgorithmDefinitions.mutex(a).family() == ProtocolFamily.TOKEN);
    }

    /** A view change costs exactly 3(N-1) census messages (QUERY, REPORT, DONE), then requests are granted. */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void viewChangeCostsThreeNMinusOne(MutexAlgorithm algorithm) {
        censusCost(AlgorithmDefinitions.mutex(algorithm), false);
    }

    /** A lock first used by a non-steward (created lazily everywhere) costs 3(N-1) + 1 census messages (HELLO first). */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void firstUseCostsOneHelloMore(MutexAlgorithm algorithm) {
        censusCost(AlgorithmDefinitions.mutex(algorithm), true);
    }

    private static <M extends ProtocolMessage> void censusCost(MutexProtocolDefinition<M> d, boolean lazy) {
        int n = 5;
        Cluster<M> c = lazy ? Cluster.lazy(d, n, ProtocolOptions.NONE) : new Cluster<>(d, n);
        if (!lazy) {
            c.changeView(c.nextView(0, 1, 2, 3, 4));
        }
        c.request(3);
        settleUntil(c, () -> c.inCS(3));
        long census = c.sent().stream().filter(e -> e.message() instanceof CensusCarrier).count();
        assertEquals(3L * (n - 1) + (lazy ? 1 : 0), census, d.name() + (lazy ? " lazy" : " view change"));
        assertEquals(List.of(), c.violations());
    }

    /**
     * Delivers everything, then, until {@code condition} holds, fires the running timers (token-ring's
     * idle pause) and delivers again; fails if it never holds.
     */
    private static void settleUntil(Cluster<?> c, BooleanSupplier condition) {
        c.deliverAll();
        for (int round = 0; round < 1000 && !condition.getAsBoolean(); round++) {
            for (Map.Entry<NodeId, String> t : c.runningTimers()) {
                c.fireTimer(t.getKey().value(), t.getValue());
            }
            c.deliverAll();
        }
        assertTrue(condition.getAsBoolean(), "never settled: " + c);
    }

    /** A cluster of {@code n} started as the simulator starts one (token-ring's ring[0] sets its token going). */
    private static Cluster<?> started(MutexAlgorithm algorithm, int n) {
        Cluster<?> c = new Cluster<>(AlgorithmDefinitions.mutex(algorithm), n);
        for (NodeId m : c.members()) {
            c.act(m.value(), MutexProtocol::onStart);
        }
        return c;
    }

    /** The census messages of {@code type} sent since message number {@code from}, in order. */
    private static <T extends CensusMessage> List<T> censusSent(Cluster<?> c, int from, Class<T> type) {
        return c.sent().subList(from, c.sent().size()).stream()
                .filter(e -> e.message() instanceof CensusCarrier carrier && type.isInstance(carrier.message()))
                .map(e -> type.cast(((CensusCarrier) e.message()).message())).toList();
    }

    /**
     * How many tokens the members hold, as a census sees them: installs a view of the same members
     * (a new epoch; nothing is in flight at the call) and counts the members whose REPORT says they
     * hold the token, plus the steward if DONE keeps the token at the steward without regenerating
     * it. Observable from the messages alone, unlike the algorithms' private state. A regenerated
     * token (none held) counts 0.
     */
    private static long tokensSeenByACensus(Cluster<?> c) {
        assertEquals(List.of(), c.inFlight(), "tokens can be counted only when nothing is in flight");
        int from = c.messagesSent();
        long[] members = c.members().stream().mapToLong(NodeId::value).toArray();
        c.changeView(c.nextView(members));
        settleUntil(c, () -> !censusSent(c, from, CensusMessage.Done.class).isEmpty());
        CensusOutcome outcome = censusSent(c, from, CensusMessage.Done.class).get(0).outcome();
        long reported = censusSent(c, from, CensusMessage.Report.class).stream()
                .filter(r -> r.report().holdsToken()).count();
        boolean stewardHolds = !outcome.regenerated() && outcome.holder().equals(c.view().member(0));
        return reported + (stewardHolds ? 1 : 0);
    }

    /**
     * A view change while the token is in flight: the census finds no token, the steward regenerates one, and the waiter is granted.
     * Nodes 0 and 3 both ask; whichever the token reaches first releases it toward the other (token-ring's token, which
     * leaves node 0 at once when no idle pause holds it there, reaches node 3 first).
     */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void tokenLostAtViewChangeIsRegeneratedByTheCensus(MutexAlgorithm algorithm) {
        Cluster<?> c = started(algorithm, 4);
        c.request(0);
        c.request(3);
        settleUntil(c, () -> c.inCS(0) || c.inCS(3));
        int holder = c.inCS(0) ? 0 : 3;
        int waiter = 3 - holder;
        c.release(holder); // the token leaves the holder toward the waiter
        assertTrue(!c.inFlight().isEmpty() && !c.inCS(waiter), "the token is in flight");
        int before = c.messagesSent();
        c.changeView(c.nextView(0, 1, 2, 3)); // the token in flight is lost with the old epoch
        settleUntil(c, () -> c.inCS(waiter));
        List<CensusMessage.Done> done = censusSent(c, before, CensusMessage.Done.class);
        assertEquals(3, done.size(), "one DONE to each of the 3 other members");
        assertTrue(done.get(0).outcome().regenerated(), "no member reported the token: " + done);
        c.release(waiter);
        settleUntil(c, () -> c.inFlight().isEmpty());
        assertEquals(1, tokensSeenByACensus(c));
        assertEquals(List.of(), c.violations());
    }

    /** The holder leaves in the critical section: the others go on with one regenerated token and larger fences. */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void holderLeavesThenOthersContinue(MutexAlgorithm algorithm) {
        Cluster<?> c = started(algorithm, 4);
        c.request(2);
        settleUntil(c, () -> c.inCS(2));
        c.request(1);
        c.deliverAll();
        c.changeView(c.nextView(0, 1, 3));
        settleUntil(c, () -> c.inCS(1));
        c.release(1);
        c.request(3);
        settleUntil(c, () -> c.inCS(3));
        c.release(3);
        settleUntil(c, () -> c.inFlight().isEmpty());
        assertEquals(1, tokensSeenByACensus(c));
        assertEquals(List.of(), c.violations()); // includes: fences strictly increasing
    }

    /** Created on first use (startsIdle = false): the first requester greets the steward, the census makes the token, all are granted. */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void lazyCreationMakesOneToken(MutexAlgorithm algorithm) {
        Cluster<?> c = Cluster.lazy(AlgorithmDefinitions.mutex(algorithm), 3, ProtocolOptions.NONE);
        c.request(2);
        settleUntil(c, () -> c.inCS(2));
        c.request(1);
        c.release(2);
        settleUntil(c, () -> c.inCS(1));
        c.release(1);
        settleUntil(c, () -> c.inFlight().isEmpty());
        assertEquals(1, tokensSeenByACensus(c));
        assertEquals(List.of(), c.violations());
    }

    /** Node 0 (the steward) and then node 2 leave and come back; every request is granted once, one at a time. */
    @ParameterizedTest
    @MethodSource("tokenAlgorithms")
    void restartedMemberRejoinsUnderItsId(MutexAlgorithm algorithm) {
        for (long seed = 0; seed < 150; seed++) {
            run(AlgorithmDefinitions.mutex(algorithm), seed, seed % 2 == 0, algorithm + " seed=" + seed);
        }
    }

    private static <M extends ProtocolMessage> void run(MutexProtocolDefinition<M> d, long seed, boolean lazy,
                                                        String where) {
        Random random = new Random(seed);
        Cluster<M> c = lazy ? Cluster.lazy(d, 4, ProtocolOptions.NONE) : new Cluster<>(d, 4);
        Map<NodeId, Integer> budget = new TreeMap<>();
        for (NodeId m : c.members()) {
            budget.put(m, 4);
        }
        long[][] views = {{1, 2, 3}, {0, 1, 2, 3}, {0, 1, 3}, {0, 1, 2, 3}};
        int next = 0;
        for (int step = 0; step < 100_000; step++) {
            if (next < views.length && random.nextInt(30) == 0) {
                long[] members = views[next++];
                c.changeView(c.nextView(members));
                for (long m : members) {
                    if (!budget.containsKey(NodeId.of(m)) || budget.get(NodeId.of(m)) > 0) {
                        budget.merge(NodeId.of(m), 2, Integer::sum);
                    }
                }
                if (next == 2 || next == 4) {
                    budget.put(NodeId.of(next == 2 ? 0 : 2), 0); // the newcomer never uses the lock itself
                }
                continue;
            }
            if (!c.randomStep(random, budget, false, 0.02)) {
                if (next < views.length) {
                    continue; // idle until the next view
                }
                break;
            }
        }
        c.checkNobodyWaits();
        assertEquals(List.of(), c.violations(), where + " " + c);
    }
}
