package io.dlock;

import io.dlock.mutex.centralized.CentralizedDefinition;
import io.dlock.mutex.decentralized.DecentralizedDefinition;
import io.dlock.mutex.lamport.LamportDefinition;
import io.dlock.mutex.maekawa.MaekawaDefinition;
import io.dlock.mutex.raynal.RaynalDefinition;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaDefinition;
import io.dlock.protocol.MutexProtocolDefinition;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The distributed mutual-exclusion algorithms dlock provides, selected by {@code dlock.mutex}. This
 * is the registry: tests, the CLI and the benchmarks enumerate {@link #values()}.
 */
public enum MutexAlgorithm {

    /** A coordinator (the highest id of the view) queues requests and grants in arrival order; 3 messages per entry. */
    CENTRALIZED(new CentralizedDefinition()),
    /** Ricart and Agrawala (1981): permission from every other node, replies deferred by priority; 2(N-1). */
    RICART_AGRAWALA(new RicartAgrawalaDefinition()),
    /** Lamport (1978): a replicated request queue ordered by logical clocks; needs FIFO channels; 3(N-1). */
    LAMPORT(new LamportDefinition()),
    /** Maekawa (1985): permission from a quorum of about 2√N arbiters, deadlock-free version; needs FIFO; 3(K-1) to 5(K-1). */
    MAEKAWA(new MaekawaDefinition()),
    /** Decentralized majority voting over N replicas (Tanenbaum's version of Lin et al. 2004): m > N/2 votes, random back-off; 3(N-1) uncontended. */
    DECENTRALIZED(new DecentralizedDefinition()),
    /** Raynal (1989): pairwise coprime attributes and the test T = Q/A_i; INFORM version, the right circulates forever; d(N-1). */
    RAYNAL(new RaynalDefinition());

    private final MutexProtocolDefinition<?> definition;

    MutexAlgorithm(MutexProtocolDefinition<?> definition) {
        this.definition = definition;
    }

    /** The configuration name, e.g. {@code ricart-agrawala}. */
    public String configName() {
        return definition.name();
    }

    /** The algorithm's definition: characteristics, codec, costs, factory. */
    public MutexProtocolDefinition<?> definition() {
        return definition;
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
        throw new DlockConfigException("dlock.mutex=" + name + " is not a known algorithm; allowed: " + allNames());
    }

    /** All configuration names, comma-separated, in declaration order. */
    public static String allNames() {
        return Arrays.stream(values()).map(MutexAlgorithm::configName).collect(Collectors.joining(", "));
    }
}
