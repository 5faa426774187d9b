package io.dlock.protocol;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Algorithm-specific settings, such as Lamport's {@code immediate-ack} or the centralized
 * coordinator's {@code send-denied}: string keys and values with typed, validating getters. Keys
 * are those an algorithm's {@link MutexProtocolDefinition#optionKeys()} declares.
 *
 * <p>Besides the settings, the driver may attach a <em>random seed</em>, not a user setting: the seed
 * of the protocol's own random source ({@link ProtocolContext#random}), which a simulator forks for
 * each node from its run's seed so that a run replays from that seed alone. It travels with the
 * options so that every instance the driver creates for the node (also behind the
 * primary-view gate of {@code io.dlock.membership}) gets it.
 *
 * @param values     the settings; copied
 * @param randomSeed the driver's seed for the protocol's random source, if it gives one
 */
public record ProtocolOptions(Map<String, String> values, OptionalLong randomSeed) {

    /** No options: every algorithm's defaults. */
    public static final ProtocolOptions NONE = new ProtocolOptions(Map.of());

    public ProtocolOptions {
        values = Map.copyOf(values);
        java.util.Objects.requireNonNull(randomSeed, "randomSeed");
    }

    /** Settings without a random seed from the driver. */
    public ProtocolOptions(Map<String, String> values) {
        this(values, OptionalLong.empty());
    }

    /** A copy with {@code key} set to {@code value}. */
    public ProtocolOptions with(String key, String value) {
        Map<String, String> copy = new TreeMap<>(values);
        copy.put(key, value);
        return new ProtocolOptions(copy, randomSeed);
    }

    /** A copy carrying the driver's random seed {@code seed} (see the class comment). */
    public ProtocolOptions withRandomSeed(long seed) {
        return new ProtocolOptions(values, OptionalLong.of(seed));
    }

    /**
     * These options, with each key they do not set taken from {@code defaults}; the random seed is this
     * one's, else the defaults'.
     */
    public ProtocolOptions over(ProtocolOptions defaults) {
        Map<String, String> merged = new TreeMap<>(defaults.values());
        merged.putAll(values);
        return new ProtocolOptions(merged, randomSeed.isPresent() ? randomSeed : defaults.randomSeed());
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
