package io.dlock.mutex.centralized;

import io.dlock.NodeId;
import io.dlock.mutex.common.RendezvousHash;
import io.dlock.spi.View;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the centralized algorithm chooses the coordinator of a lock in a view: the value of option
 * {@value CentralizedDefinition#COORDINATOR} (docs/algorithms.md A1, rule 7).
 */
enum CoordinatorChoice {

    /**
     * Each lock name has its own coordinator: the member of the view that owns the name by rendezvous hashing
     * ({@link RendezvousHash}), so the locks of a cluster spread their coordination over every member. The
     * election is not consulted; every member derives the same coordinator from the same view.
     */
    PER_NAME("per-name"),

    /**
     * Every lock's coordinator is the leader the configured election reported for the view's epoch, else, until
     * it has, the highest id of the view (what every election of dlock elects).
     */
    LEADER("leader");

    private final String configName;

    CoordinatorChoice(String configName) {
        this.configName = configName;
    }

    /** The option value that selects it. */
    String configName() {
        return configName;
    }

    /**
     * The choice the option value {@code value} names; {@code fallback} when it is null (not set).
     *
     * @throws IllegalArgumentException naming the bad value and the allowed ones
     */
    static CoordinatorChoice parse(String value, CoordinatorChoice fallback) {
        if (value == null) {
            return fallback;
        }
        for (CoordinatorChoice c : values()) {
            if (c.configName.equalsIgnoreCase(value.trim())) {
                return c;
            }
        }
        throw new IllegalArgumentException("option " + CentralizedDefinition.COORDINATOR + "=" + value
                + " is not allowed; allowed: "
                + Arrays.stream(values()).map(CoordinatorChoice::configName).collect(Collectors.joining(", ")));
    }

    /**
     * The coordinator of lock {@code lockName} in {@code view} when no leader is known or this choice ignores
     * the leader: the rendezvous owner of the name, or the highest member.
     */
    NodeId coordinatorWithoutLeader(String lockName, View view) {
        return this == PER_NAME ? RendezvousHash.owner(lockName, view) : view.highest();
    }
}
