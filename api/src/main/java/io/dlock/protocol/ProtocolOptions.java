package io.dlock.protocol;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Algorithm-specific settings, such as Lamport's {@code immediate-ack} or the centralized
 * coordinator's {@code send-denied}: string keys and values with typed, validating getters. Keys
 * are those an algorithm's {@link MutexProtocolDefinition#optionKeys()} declares.
 *
 * @param values the settings; copied
 */
public record ProtocolOptions(Map<String, String> values) {

    /** No options: every algorithm's defaults. */
    public static final ProtocolOptions NONE = new ProtocolOptions(Map.of());

    public ProtocolOptions {
        values = Map.copyOf(values);
    }

    /** A copy with {@code key} set to {@code value}. */
    public ProtocolOptions with(String key, String value) {
        Map<String, String> copy = new TreeMap<>(values);
        copy.put(key, value);
        return new ProtocolOptions(copy);
    }

    /** These options, with each key they do not set taken from {@code defaults}. */
    public ProtocolOptions over(ProtocolOptions defaults) {
        Map<String, String> merged = new TreeMap<>(defaults.values());
        merged.putAll(values);
        return new ProtocolOptions(merged);
    }

    /**
     * The boolean {@code key}, or {@code fallback} when it is not set.
     *
     * @throws IllegalArgumentException if the value is not {@code true} or {@code false}
     */
    public boolean getBoolean(String key, boolean fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("option " + key + "=" + v + " is not a boolean; allowed: true, false");
    }

    /**
     * The integer {@code key}, or {@code fallback} when it is not set.
     *
     * @throws IllegalArgumentException if the value is not an integer in {@code [min, max]}
     */
    public long getLong(String key, long fallback, long min, long max) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        long parsed;
        try {
            parsed = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + "=" + v + " is not an integer; allowed: "
                    + min + " to " + max);
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException("option " + key + "=" + v + " is out of range; allowed: "
                    + min + " to " + max);
        }
        return parsed;
    }

    /** The raw value of {@code key}, or {@code null} when it is not set. */
    public String get(String key) {
        return values.get(key);
    }

    /**
     * Checks that every key set is one of {@code allowed}.
     *
     * @throws IllegalArgumentException naming the unknown key and the allowed ones
     */
    public void requireKeysIn(String algorithm, Set<String> allowed) {
        for (String key : values.keySet()) {
            if (!allowed.contains(key)) {
                throw new IllegalArgumentException("unknown option '" + key + "' for algorithm " + algorithm
                        + "; allowed: " + (allowed.isEmpty() ? "none" : String.join(", ", new TreeSet<>(allowed))));
            }
        }
    }
}
