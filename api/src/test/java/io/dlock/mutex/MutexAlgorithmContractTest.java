package io.dlock.mutex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.mutex.ctta.CttaMessage;
import io.dlock.mutex.raymond.RaymondDefinition;
import io.dlock.mutex.raynal.RaynalMessage;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.RecordingEffects;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What every registered mutual-exclusion algorithm must do: declare its characteristics, validate
 * its options, and keep ME1 (one holder), ME3 (every request granted) and increasing fencing tokens
 * on random schedules with reordering (FIFO only where the algorithm requires it), duplicated
 * messages and view changes. Each random run is seeded; a failure names the seed.
 */
public class MutexAlgorithmContractTest {

    /**
     * Algorithms whose messages per entry depend on the schedule: the claim checked instead of
     * equality with {@code expectedMessagesPerEntry}. Token ring: at least one hop per entry but the
     * first (TR-2; a node enters at most once per visit). Suzuki-Kasami: exactly N per entry that
     * needed the token, N-1 REQUEST + 1 TOKEN, 0 for the idle holder (SK-1). Raymond: at most 2D
     * per entry (RAY-3). Naimi-Trehel: at most N per entry (NT-3). CTTA: N-1 CRREQ per entry and at
     * most one TOKEN per entry (CT-1).
     */
    private static final Map<MutexAlgorithm, BiPredicate<Cluster<?>, Integer>> MESSAGE_BOUNDS = new EnumMap<>(Map.of(
            MutexAlgorithm.TOKEN_RING, (c, n) -> n == 1 ? c.messagesSent() == 0
                    : c.messagesSent() >= c.entries().size() - 1,
            MutexAlgorithm.SUZUKI_KASAMI, (c, n) -> c.messagesSent(SuzukiKasamiMessage.Token.class) <= c.entries().size()
                    && c.messagesSent() == n * c.messagesSent(SuzukiKasamiMessage.Token.class),
            MutexAlgorithm.RAYMOND, (c, n) -> c.messagesSent() <= 2L * RaymondDefinition.treeDiameter(n) * c.entries().size(),
            // NT-3: at most N per entry (N-1 REQUEST hops and the TOKEN); CT-1: N-1 CRREQ per entry plus one TOKEN per hand-off
            MutexAlgorithm.NAIMI_TREHEL, (c, n) -> c.messagesSent() <= (long) n * c.entries().size(),
            MutexAlgorithm.CTTA, (c, n) -> c.messagesSent(CttaMessage.Token.class) <= c.entries().size()
                    && c.messagesSent() == (n - 1L) * c.entries().size() + c.messagesSent(CttaMessage.Token.class),
            // RN-5 and rule 11: whole passes of N-1 INFORMs (entries and idle passes) and at most one WAKE per entry
            MutexAlgorithm.RAYNAL, (c, n) -> n == 1 ? c.messagesSent() == 0
                    : c.messagesSent(RaynalMessage.Inform.class) % (n - 1) == 0
                            && c.messagesSent(RaynalMessage.Wake.class) <= c.entries().size()
                            && c.messagesSent() == c.messagesSent(RaynalMessage.Inform.class)
                                    + c.messagesSent(RaynalMessage.Wake.class)));

    /** Each algorithm declares the name, family, FIFO need, options, formula and delay of docs/algorithms.md. */
    @Test
    void definitionsDeclareTheirCharacteristics() {
        check(MutexAlgorithm.CENTRALIZED, "centralized", ProtocolFamily.CENTRAL, false, Set.of("send-denied", "coordinator"),
                "3 (0 for the coordinator's own)", 2);
        check(MutexAlgorithm.RICART_AGRAWALA, "ricart-agrawala", ProtocolFamily.PERMISSION, false, Set.of(),
                "2(N-1)", 1);
        check(MutexAlgorithm.LAMPORT, "lamport", ProtocolFamily.PERMISSION, true, Set.of("immediate-ack"),
                "3(N-1)", 1);
        check(MutexAlgorithm.TOKEN_RING, "token-ring", ProtocolFamily.TOKEN, false, Set.of("idle-pause-ms", "token-ack-ms"),
                "1 .. inf (1 under full load)", 1);
        check(MutexAlgorithm.SUZUKI_KASAMI, "suzuki-kasami", ProtocolFamily.TOKEN, false, Set.of(),
                "N (0 for the idle holder)", 1);
        check(MutexAlgorithm.RAYMOND, "raymond", ProtocolFamily.TOKEN, false, Set.of(), "<= 2D, avg O(log N)", 1);
        check(MutexAlgorithm.NAIMI_TREHEL, "naimi-trehel", ProtocolFamily.TOKEN, false,
                Set.of("fault-tolerant", "twait", "telec"), "avg O(log N); worst N", 1);
        check(MutexAlgorithm.CTTA, "ctta", ProtocolFamily.TOKEN, false, Set.of("regenerate", "regen-timeout"),
                "N (N-1 at the idle holder)", 1);
        check(MutexAlgorithm.MAEKAWA, "maekawa", ProtocolFamily.QUORUM, true, Set.of("basic", "quorum"),
                "3(K-1)..5(K-1), K=|S_i|", 2);
        check(MutexAlgorithm.DECENTRALIZED, "decentralized", ProtocolFamily.QUORUM, false,
                Set.of("quorum", "backoff-ms", "backoff-cap", "seed", "reply-timeout-ms"), "3(N-1); sum_a 2(N-1)+g_a", Double.NaN);
        check(MutexAlgorithm.RAYNAL, "raynal", ProtocolFamily.PERMISSION, false,
                Set.of("original", "retry-ms", "idle-pass-ms"), "d(N-1) <= (N-1)^2 (INFORM)", 1);
    }

    private static void check(MutexAlgorithm algorithm, String name, ProtocolFamily family, boolean fifo,
                              Set<String> options, String formula, double syncDelay) {
        MutexProtocolDefinition<?> d = AlgorithmDefinitions.mutex(algorithm);
        assertEquals(name, d.name());
        assertSame(algorithm, MutexAlgorithm.fromConfigName(name));
        assertEquals(family, d.family());
        assertEquals(fifo, d.requiresFifo());
        assertEquals(options, d.optionKeys());
        assertEquals(formula, d.messagesFormula());
        assertEquals(syncDelay, d.expectedSyncDelay());
    }

    /** Expected messages per entry: 3(n-1)/n centralized, 2(n-1) Ricart-Agrawala, 3(n-1) Lamport. */
    @Test
    void expectedMessagesPerEntryFollowTheFormulas() {
        for (int n = 1; n <= 8; n++) {
            assertEquals(3.0 * (n - 1) / n, AlgorithmDefinitions.mutex(MutexAlgorithm.CENTRALIZED).expectedMessagesPerEntry(n), 1e-12);
            assertEquals(2.0 * (n - 1), AlgorithmDefinitions.mutex(MutexAlgorithm.RICART_AGRAWALA).expectedMessagesPerEntry(n));
            assertEquals(3.0 * (n - 1), AlgorithmDefinitions.mutex(MutexAlgorithm.LAMPORT).expectedMessagesPerEntry(n));
        }
    }

    /** An unknown option key is refused with IllegalArgumentException naming the key. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void unknownOptionIsRejected(MutexAlgorithm algorithm) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> create(AlgorithmDefinitions.mutex(algorithm), ProtocolOptions.NONE.with("no-such-option", "true")));
        assertTrue(e.getMessage().contains("no-such-option"), e.getMessage());
    }

    /** A boolean option with a value other than true/false is refused, naming key and value. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void badBooleanOptionIsRejected(MutexAlgorithm algorithm) {
        for (String key : AlgorithmDefinitions.mutex(algorithm).optionKeys()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> create(AlgorithmDefinitions.mutex(algorithm), ProtocolOptions.NONE.with(key, "maybe")));
            assertTrue(e.getMessage().contains(key) && e.getMessage().contains("maybe"), e.getMessage());
        }
    }

    /**
     * Every declared option accepts true and false (any case), or, if it is numeric, an integer such as
     * 1, or, if it is a choice, every value its refusal of "true" names after "allowed: "; and with each
     * such value the algorithm is still a lock: a random run of three nodes, three requests each, grants
     * all nine in mutual exclusion.
     */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void everyAcceptedOptionValueGivesAWorkingLock(MutexAlgorithm algorithm) {
        for (String key : AlgorithmDefinitions.mutex(algorithm).optionKeys()) {
            String refusal = null;
            try {
                AlgorithmDefinitions.mutex(algorithm).validateOptions(ProtocolOptions.NONE.with(key, "true"));
            } catch (IllegalArgumentException e) {
                refusal = e.getMessage();
            }
            List<String> values;
            if (refusal != null && refusal.matches(".*allowed: [a-z-]+(, [a-z-]+)+$")) {
                values = List.of(refusal.substring(refusal.indexOf("allowed: ") + 9).split(", "));
            } else if (refusal != null) {
                values = List.of("1");
            } else {
                values = List.of("true", "FALSE");
            }
            for (String value : values) {
                assertWorks(AlgorithmDefinitions.mutex(algorithm), ProtocolOptions.NONE.with(key, value), key + "=" + value);
            }
        }
    }

    private static <M extends ProtocolMessage> void assertWorks(MutexProtocolDefinition<M> definition,
                                                                ProtocolOptions options, String setting) {
        Cluster<M> cluster = new Cluster<>(definition, 3, options);
        cluster.runWorkload(new Random(1), Set.copyOf(cluster.members()), 3, true, 0);
        assertEquals(List.of(), cluster.violations(), definition.name() + " with " + setting);
        assertEquals(9, cluster.entries().size(), definition.name() + " with " + setting + ": entries");
    }

    private static <M extends ProtocolMessage> void create(MutexProtocolDefinition<M> definition,
                                                           ProtocolOptions options) {
        View view = View.ofRange(1, 3);
        definition.create(new ProtocolContext<>(NodeId.of(0), view, new RecordingEffects<>(NodeId.of(0), view), options));
    }

    /** A single node enters at once, with no message, every time it asks. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void singleNodeEntersAtOnce(MutexAlgorithm algorithm) {
        Cluster<?> c = new Cluster<>(AlgorithmDefinitions.mutex(algorithm), 1);
        for (int i = 0; i < 3; i++) {
            c.request(0);
            assertTrue(c.inCS(0));
            c.release(0);
        }
        assertEquals(0, c.messagesSent());
        assertEquals(List.of(1L, 2L, 3L), c.fences());
    }

    /**
     * When every node makes the same number of requests, messages per entry equal
     * {@code expectedMessagesPerEntry(n)} exactly, on any schedule the algorithm allows, or satisfy the
     * algorithm's bound above where the count depends on the schedule.
     */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void messagesPerEntryMatchTheDefinition(MutexAlgorithm algorithm) {
        MutexProtocolDefinition<?> d = AlgorithmDefinitions.mutex(algorithm);
        for (int n = 1; n <= 5; n++) {
            for (long seed = 0; seed < 10; seed++) {
                Cluster<?> c = new Cluster<>(d, n);
                c.runWorkload(new Random(seed), Set.copyOf(View.ofRange(0, n).members()), 3, d.requiresFifo(), 0);
                String where = algorithm + " n=" + n + " seed=" + seed;
                assertEquals(List.of(), c.violations(), where);
                assertEquals(3 * n, c.entries().size(), where);
                double perEntry = (double) c.messagesSent() / c.entries().size();
                if (MESSAGE_BOUNDS.containsKey(algorithm)) {
                    assertTrue(MESSAGE_BOUNDS.get(algorithm).test(c, n), where + ": " + c.messagesSent() + " messages for "
                            + c.entries().size() + " entries");
                } else if (d.family() == ProtocolFamily.QUORUM) {
                    // quorum algorithms: the definition gives the uncontended cost, contention adds to it
                    assertTrue(perEntry >= d.expectedMessagesPerEntry(n) - 1e-9, where + ": " + perEntry);
                } else {
                    assertEquals(d.expectedMessagesPerEntry(n), perEntry, 1e-9, where);
                }
            }
        }
    }

    /** ME1, ME3 and increasing fencing tokens hold when 5% of deliveries are duplicated. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void safeAndLiveWithDuplicatedMessages(MutexAlgorithm algorithm) {
        MutexProtocolDefinition<?> d = AlgorithmDefinitions.mutex(algorithm);
        for (int n = 2; n <= 5; n++) {
            for (long seed = 0; seed < 25; seed++) {
                Cluster<?> c = new Cluster<>(d, n);
                Set<NodeId> all = Set.copyOf(View.ofRange(0, n).members());
                c.runWorkload(new Random(seed), all, 4, d.requiresFifo(), 0.05);
                String where = algorithm + " n=" + n + " seed=" + seed;
                assertEquals(List.of(), c.violations(), where);
                assertEquals(4 * n, c.entries().size(), where);
            }
        }
    }

    /**
     * ME1, ME3 and increasing fencing tokens hold across view changes: members that leave (while
     * idle or waiting), members that join (often with the highest id), messages lost with the old
     * epoch, and 2% duplicated deliveries.
     */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void safeAndLiveAcrossViewChanges(MutexAlgorithm algorithm) {
        for (long seed = 0; seed < 60; seed++) {
            runWithViewChanges(AlgorithmDefinitions.mutex(algorithm), ProtocolOptions.NONE, false, seed, false, 5, 0.02, algorithm + " seed=" + seed);
        }
    }

    /** Fencing tokens keep increasing even when the holder crashes (leaves while in the critical section). */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void fencesIncreaseWhenHoldersCrash(MutexAlgorithm algorithm) {
        for (long seed = 0; seed < 60; seed++) {
            runWithViewChanges(AlgorithmDefinitions.mutex(algorithm), ProtocolOptions.NONE, false, seed, true, 5, 0.02, algorithm + " seed=" + seed);
        }
    }

    /**
     * Created on first use, as the runtime creates a lock (startsIdle = false): every request is
     * granted once, one at a time, with increasing tokens, also across view changes.
     */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void safeAndLiveWhenCreatedOnFirstUse(MutexAlgorithm algorithm) {
        for (long seed = 0; seed < 60; seed++) {
            runWithViewChanges(AlgorithmDefinitions.mutex(algorithm), ProtocolOptions.NONE, true, seed, seed % 2 == 0, 5, 0.02,
                    algorithm + " lazy seed=" + seed);
        }
    }

    /**
     * A seeded run of 4 nodes (3 requests each, 3 for each joiner) with up to {@code maxViewChanges}
     * random joins and leaves, and {@code duplicates} probability of duplicating a delivery; with
     * {@code lazy}, protocols are created on first use.
     */
    static <M extends ProtocolMessage> void runWithViewChanges(MutexProtocolDefinition<M> d, ProtocolOptions options,
                                                               boolean lazy, long seed,
                                                               boolean holdersMayLeave, int maxViewChanges,
                                                               double duplicates, String where) {
        runWithViewChanges(d, options, ProtocolContext.DEFAULT_LOCK_NAME, lazy, seed, holdersMayLeave, maxViewChanges,
                duplicates, where);
    }

    /** As above, for the lock {@code lockName} (an algorithm may derive per-lock choices from the name). */
    public static <M extends ProtocolMessage> void runWithViewChanges(MutexProtocolDefinition<M> d,
                                                                      ProtocolOptions options, String lockName,
                                                                      boolean lazy, long seed,
                                                                      boolean holdersMayLeave, int maxViewChanges,
                                                                      double duplicates, String where) {
        Random random = new Random(seed);
        Cluster<M> c = lazy ? Cluster.lazy(d, 4, options, lockName) : new Cluster<>(d, 4, options, lockName);
        Map<NodeId, Integer> budget = new TreeMap<>();
        for (NodeId n : c.members()) {
            budget.put(n, 3);
        }
        long nextId = 4;
        int viewChanges = 0;
        for (int step = 0; step < 200_000; step++) {
            if (viewChanges < maxViewChanges && random.nextInt(25) == 0) {
                viewChanges++;
                List<NodeId> members = new ArrayList<>(c.view().members());
                boolean join = members.size() <= 2 || random.nextBoolean();
                if (join) {
                    NodeId joiner = NodeId.of(random.nextInt(3) == 0 ? random.nextInt((int) nextId) : nextId);
                    if (!members.contains(joiner)) {
                        members.add(joiner);
                        budget.put(joiner, 3);
                        nextId = Math.max(nextId, joiner.value() + 1);
                    }
                } else {
                    List<NodeId> leavers = new ArrayList<>();
                    for (NodeId m : members) {
                        if (holdersMayLeave || !c.inCS(m.value())) {
                            leavers.add(m);
                        }
                    }
                    if (!leavers.isEmpty()) {
                        members.remove(leavers.get(random.nextInt(leavers.size())));
                    }
                }
                c.changeView(new View(c.view().epoch() + 1, members));
                continue;
            }
            if (!c.randomStep(random, budget, d.requiresFifo(), duplicates)) {
                break;
            }
        }
        c.checkNobodyWaits();
        assertEquals(List.of(), c.violations(), where);
        assertTrue(c.inFlight().isEmpty() || !d.quiescentWhenIdle(), where);
    }
}
