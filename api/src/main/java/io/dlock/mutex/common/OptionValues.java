package io.dlock.mutex.common;

import io.dlock.protocol.ProtocolOptions;

/**
 * Typed readers for algorithm options that {@link ProtocolOptions} has no getter for, such as the
 * recovery timeouts of the token algorithms. Times are milliseconds in the runtime and virtual time
 * units in the simulator (both reach the protocol through {@code MutexEffects.setTimer}).
 */
public final class OptionValues {

    private OptionValues() {
    }

    /**
     * The positive whole number {@code key} of {@code options}, or {@code fallback} when it is not set.
     *
     * @param algorithm the algorithm's configuration name, for the message
     * @throws IllegalArgumentException naming the key and the value if it is not a number above 0
     */
    public static long positiveLong(ProtocolOptions options, String algorithm, String key, long fallback) {
        String v = options.values().get(key);
        if (v == null) {
            return fallback;
        }
        long parsed;
        try {
            parsed = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + "=" + v + " of " + algorithm
                    + " is not a whole number; allowed: a number >= 1");
        }
        if (parsed < 1) {
            throw new IllegalArgumentException("option " + key + "=" + v + " of " + algorithm + " must be >= 1");
        }
        return parsed;
    }
}
