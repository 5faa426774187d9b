package io.dlock;

import io.dlock.mutex.maekawa.MaekawaDefinition;
import io.dlock.mutex.raynal.RaynalDefinition;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A named variant of a mutual-exclusion algorithm: the algorithm with some options fixed. Variants
 * are accepted wherever an algorithm name is ({@code dlock.mutex=maekawa-basic} equals
 * {@code dlock.mutex=maekawa} with {@code dlock.mutex.basic=true}); they are not in
 * {@link MutexAlgorithm}'s registry, because they are the source notes' deliberately flawed versions, kept to
 * show their flaws (both can deadlock), and the registry lists what the test suites require to be
 * correct.
 *
 * @param name      the configuration name
 * @param algorithm the algorithm it runs
 * @param options   the options it fixes ({@code dlock.mutex.<option>} keys, prefix removed)
 */
public record MutexVariant(String name, MutexAlgorithm algorithm, Map<String, String> options) {

    /** @throws NullPointerException if an argument is null; the options are copied, unmodifiable */
    public MutexVariant {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(algorithm, "algorithm");
        options = Map.copyOf(options);
    }

    /** Every variant. */
    public static final List<MutexVariant> ALL = List.of(
            new MutexVariant("maekawa-basic", MutexAlgorithm.MAEKAWA,
                    Map.of(MaekawaDefinition.BASIC, "true")),
            new MutexVariant("raynal-original", MutexAlgorithm.RAYNAL,
                    Map.of(RaynalDefinition.ORIGINAL, "true")));

    /** The variant named {@code name}, if there is one. */
    public static Optional<MutexVariant> named(String name) {
        return ALL.stream().filter(v -> v.name.equals(name)).findFirst();
    }

    /** All variant names, comma-separated. */
    public static String allNames() {
        return ALL.stream().map(MutexVariant::name).collect(Collectors.joining(", "));
    }
}
