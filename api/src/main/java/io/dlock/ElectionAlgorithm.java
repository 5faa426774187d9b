package io.dlock;

import io.dlock.election.bully.BullyDefinition;
import io.dlock.election.changroberts.ChangRobertsDefinition;
import io.dlock.election.franklin.FranklinDefinition;
import io.dlock.election.lelann.LeLannDefinition;
import io.dlock.election.peterson.PetersonDefinition;
import io.dlock.election.ring.RingDefinition;
import io.dlock.protocol.ElectionProtocolDefinition;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The leader-election algorithms dlock provides, selected by {@code dlock.election}.
 *
 * <p>This is the registry of elections: tests and the {@code elect} command enumerate
 * {@link #values()}. Every algorithm elects the live member with the highest id (docs/algorithms.md F29); they
 * differ in messages, time and assumptions. {@link #VIEW} sends nothing and has no
 * {@link #definition()}.
 */
public enum ElectionAlgorithm {

    /**
     * The leader is the highest id of the current membership view, and the epoch is the view's. It
     * sends no messages of its own: the transport's membership protocol already agrees on the view.
     */
    VIEW("view", null),
    /** Garcia-Molina's bully algorithm (docs/algorithms.md B1): ELECTION / OK / COORDINATOR with timeouts; complete graph. */
    BULLY("bully", new BullyDefinition()),
    /** Ring election with the list of live ids (docs/algorithms.md B2, Tanenbaum): skips a dead successor; ACKs. */
    RING("ring", new RingDefinition()),
    /** LeLann's (the source notes' naive) ring algorithm (docs/algorithms.md B3): n^2 messages; FIFO ring. */
    LELANN("lelann", new LeLannDefinition()),
    /** Chang and Roberts (docs/algorithms.md B4): 2n-1 .. n(n+1)/2 ELECTION + n ELECTED; FIFO ring. */
    CHANG_ROBERTS("chang-roberts", new ChangRobertsDefinition()),
    /** Franklin (docs/algorithms.md B5): bidirectional ring, 2nK+n messages, K &lt;= log2 n + 1 phases. */
    FRANKLIN("franklin", new FranklinDefinition()),
    /** Peterson's unidirectional algorithm (docs/algorithms.md B6, the source notes' "Paterson"): 2nK messages; FIFO ring. */
    PETERSON("peterson", new PetersonDefinition());

    private final String configName;
    private final ElectionProtocolDefinition<?> definition;

    ElectionAlgorithm(String configName, ElectionProtocolDefinition<?> definition) {
        this.configName = configName;
        this.definition = definition;
    }

    /** The message-passing algorithm's definition; empty for {@link #VIEW}. */
    public Optional<ElectionProtocolDefinition<?>> definition() {
        return Optional.ofNullable(definition);
    }

    /** The algorithms that exchange messages (every one but {@link #VIEW}), in declaration order. */
    public static List<ElectionAlgorithm> messagePassing() {
        return Arrays.stream(values()).filter(a -> a.definition != null).toList();
    }

    /** The configuration name, e.g. {@code view}. */
    public String configName() {
        return configName;
    }

    /**
     * The algorithm named {@code name}.
     *
     * @throws DlockConfigException naming the value and the allowed names
     */
    public static ElectionAlgorithm fromConfigName(String name) {
        for (ElectionAlgorithm a : values()) {
            if (a.configName.equals(name)) {
                return a;
            }
        }
        throw new DlockConfigException("dlock.election=" + name + " is not a known algorithm; allowed: "
                + Arrays.stream(values()).map(ElectionAlgorithm::configName).collect(Collectors.joining(", ")));
    }
}
