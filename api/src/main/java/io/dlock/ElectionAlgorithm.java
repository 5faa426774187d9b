package io.dlock;

import io.dlock.protocol.AlgorithmDefinitions;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The leader-election algorithms dlock provides, selected by {@code dlock.election}.
 *
 * <p>This is the registry of elections: tests and the {@code elect} command enumerate
 * {@link #values()}. Every algorithm elects the live member with the highest id (docs/algorithms.md F29); they
 * differ in messages, time and assumptions. {@link #VIEW} sends nothing and has no protocol
 * definition; the others' are found with {@link AlgorithmDefinitions#election(ElectionAlgorithm)}, which
 * applications do not need.
 */
public enum ElectionAlgorithm {

    /**
     * The leader is the highest id of the current membership view, and the epoch is the view's. It
     * sends no messages of its own: the transport's membership protocol already agrees on the view.
     */
    VIEW("view"),
    /** Garcia-Molina's bully algorithm (docs/algorithms.md B1): ELECTION / OK / COORDINATOR with timeouts; complete graph. */
    BULLY("bully"),
    /** Ring election with the list of live ids (docs/algorithms.md B2, Tanenbaum): skips a dead successor; ACKs. */
    RING("ring"),
    /** LeLann's (the source notes' naive) ring algorithm (docs/algorithms.md B3): n^2 messages; FIFO ring. */
    LELANN("lelann"),
    /** Chang and Roberts (docs/algorithms.md B4): 2n-1 .. n(n+1)/2 ELECTION + n ELECTED; FIFO ring. */
    CHANG_ROBERTS("chang-roberts"),
    /** Franklin (docs/algorithms.md B5): bidirectional ring, 2nK+n messages, K &lt;= log2 n + 1 phases. */
    FRANKLIN("franklin"),
    /** Peterson's unidirectional algorithm (docs/algorithms.md B6, the source notes' "Paterson"): 2nK messages; FIFO ring. */
    PETERSON("peterson");

    private final String configName;

    ElectionAlgorithm(String configName) {
        this.configName = configName;
    }

    /** The algorithms that exchange messages (every one but {@link #VIEW}), in declaration order. */
    public static List<ElectionAlgorithm> messagePassing() {
        return Arrays.stream(values()).filter(a -> a != VIEW).toList();
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
