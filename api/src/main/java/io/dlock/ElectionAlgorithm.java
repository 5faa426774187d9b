package io.dlock;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The leader-election algorithms dlock provides, selected by {@code dlock.election}.
 *
 * <p>The message-passing elections of SPEC.md part B (bully, ring, LeLann, Chang-Roberts, Franklin,
 * Peterson) are not implemented yet; {@link #VIEW} is available meanwhile.
 */
public enum ElectionAlgorithm {

    /**
     * The leader is the highest id of the current membership view, and the epoch is the view's. It
     * sends no messages of its own: the transport's membership protocol already agrees on the view.
     */
    VIEW("view");

    private final String configName;

    ElectionAlgorithm(String configName) {
        this.configName = configName;
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
