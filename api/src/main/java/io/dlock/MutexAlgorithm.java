package io.dlock;

import io.dlock.protocol.AlgorithmDefinitions;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The distributed mutual-exclusion algorithms dlock provides, selected by {@code dlock.mutex}. This
 * is the registry: tests, the CLI and the benchmarks enumerate {@link #values()}. Each algorithm's
 * implementation (its protocol definition: characteristics, codec, costs, factory) is found with
 * {@link AlgorithmDefinitions#mutex(MutexAlgorithm)}, which applications do not need.
 */
public enum MutexAlgorithm {

    /** A coordinator (the highest id of the view) queues requests and grants in arrival order; 3 messages per entry. */
    CENTRALIZED,
    /** Ricart and Agrawala (1981): permission from every other node, replies deferred by priority; 2(N-1). */
    RICART_AGRAWALA,
    /** Lamport (1978): a replicated request queue ordered by logical clocks; needs FIFO channels; 3(N-1). */
    LAMPORT,
    /** The token ring (notes S0): one token circulates along the ring of members in id order; 1 to infinity per entry. */
    TOKEN_RING,
    /** Suzuki and Kasami (1985): broadcast numbered requests, a token with LN and a queue; N per entry (0 for the idle holder). */
    SUZUKI_KASAMI,
    /** Raymond (1989): HOLDER pointers on a complete binary tree of the members; at most 2D, O(log N) per entry. */
    RAYMOND,
    /** Naimi and Trehel (1987/1996): path reversal over LAST/NEXT pointers, with token recovery; avg O(log N). */
    NAIMI_TREHEL,
    /** CTTA (Muro, Katoh, Minoura, Hasegawa): broadcast requests, cyclic token hand-off, REGENERATE; N. */
    CTTA,
    /** Maekawa (1985): permission from a quorum of K &lt;= q+1 (about √N) arbiters from a projective plane, deadlock-free version; needs FIFO; 3(K-1) to 5(K-1). */
    MAEKAWA,
    /** Decentralized majority voting over N replicas (Tanenbaum's version of Lin et al. 2004): m > N/2 votes, random back-off; 3(N-1) uncontended. */
    DECENTRALIZED,
    /** Raynal (1989): pairwise coprime attributes and the test T = Q/A_i; INFORM version, the right circulates forever; d(N-1). */
    RAYNAL;

    /** The configuration name, e.g. {@code ricart-agrawala} (its definition's name). */
    public String configName() {
        return AlgorithmDefinitions.mutex(this).name();
    }

    /**
     * The algorithm named {@code name} (its configuration name).
     *
     * @throws DlockConfigException naming the value and the allowed names
     */
    public static MutexAlgorithm fromConfigName(String name) {
        for (MutexAlgorithm a : values()) {
            if (a.configName().equals(name)) {
                return a;
            }
        }
        throw new DlockConfigException("dlock.mutex=" + name + " is not a known algorithm; allowed: " + allNames()
                + " (variants: " + MutexVariant.allNames() + ")");
    }

    /** All configuration names, comma-separated, in declaration order. */
    public static String allNames() {
        return Arrays.stream(values()).map(MutexAlgorithm::configName).collect(Collectors.joining(", "));
    }
}
