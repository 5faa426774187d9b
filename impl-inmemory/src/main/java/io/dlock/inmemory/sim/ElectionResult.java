package io.dlock.inmemory.sim;

import io.dlock.NodeId;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one {@link ElectionSimulation} run produced and what its checker found.
 *
 * @param algorithm        the algorithm's configuration name
 * @param nodes            N, the crashed node included
 * @param seed             the run seed
 * @param ring             the ring order used
 * @param starters         the initiators
 * @param crashed          the nodes crashed before the start
 * @param leader           the leader every live node agreed on, empty if they did not all learn one
 * @param learned          for each live node, the leader it learned (absent if none)
 * @param learnedAt        for each live node that learned a leader, the virtual time it first did
 *                         (with {@link DelayModel#unit()}, in message delays: docs/algorithms.md CR-6's "leader
 *                         knows at n")
 * @param members          for each live node that learned a leader, the members the algorithm reported
 *                         with it (the ring election's COORDINATOR list; empty for the others)
 * @param messages         messages sent (all types; messages to crashed nodes included, a ring
 *                         algorithm's message to itself included, docs/algorithms.md 0.2/0.4)
 * @param messagesByType   the same, per message record's simple name (sorted)
 * @param bytes            encoded bytes of those messages (0 without encoding)
 * @param steps            virtual time of the last delivery or leader decision: with
 *                         {@link DelayModel#unit()}, the election time of docs/algorithms.md 0.4
 * @param expectedMessages the definition's exact count for this setting, when docs/algorithms.md gives one
 * @param violations       what the checker found wrong, in order (empty if the run is correct)
 * @param replay           one line of Java that replays the run
 */
public record ElectionResult(String algorithm, int nodes, long seed, List<NodeId> ring, List<NodeId> starters,
                             Set<NodeId> crashed, Optional<NodeId> leader, Map<NodeId, NodeId> learned,
                             Map<NodeId, Long> learnedAt, Map<NodeId, List<NodeId>> members, long messages, Map<String, Long> messagesByType, long bytes, long steps,
                             OptionalLong expectedMessages, List<String> violations, String replay) {

    public ElectionResult {
        ring = List.copyOf(ring);
        starters = List.copyOf(starters);
        crashed = Set.copyOf(crashed);
        learned = Collections.unmodifiableMap(new TreeMap<>(learned));
        learnedAt = Collections.unmodifiableMap(new TreeMap<>(learnedAt));
        members = Collections.unmodifiableMap(new TreeMap<>(members));
        messagesByType = Collections.unmodifiableMap(new TreeMap<>(messagesByType)); // sorted, as documented
        violations = List.copyOf(violations);
    }

    /** Whether the checker found nothing wrong. */
    public boolean ok() {
        return violations.isEmpty();
    }

    /** Messages of one type, by simple record name (e.g. {@code "Election"}); 0 if none was sent. */
    public long count(String type) {
        return messagesByType.getOrDefault(type, 0L);
    }

    /** "failed on seed N; replay: ..." with the counters and every violation. */
    public String describeFailure() {
        return "failed on seed " + seed + "; replay: " + replay + "\n  " + summary()
                + (violations.isEmpty() ? "" : "\n  violations: " + String.join("; ", violations));
    }

    /** One line of the main figures. */
    public String summary() {
        return algorithm + " n=" + nodes + " seed=" + seed + " ring=" + ElectionSimulation.ids(ring) + " starters="
                + ElectionSimulation.ids(starters) + " crashed=" + ElectionSimulation.sortedIds(crashed) + ": leader="
                + leader.map(NodeId::toString).orElse("none") + " messages=" + messages + " " + messagesByType
                + " steps=" + steps + " expected="
                + (expectedMessages.isPresent() ? Long.toString(expectedMessages.getAsLong()) : "n/a");
    }
}
