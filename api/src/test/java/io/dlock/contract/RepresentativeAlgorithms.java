package io.dlock.contract;

import io.dlock.MutexAlgorithm;
import java.util.stream.Stream;

/**
 * The algorithms a slow transport runs a contract on by default: one per family, the coordinator
 * ({@code centralized}), a permission ({@code ricart-agrawala}) and a token ({@code suzuki-kasami}) algorithm.
 */
public final class RepresentativeAlgorithms {

    private RepresentativeAlgorithms() {
    }

    /** The three representatives; every registered algorithm if the system property {@code allProperty} is true. */
    public static Stream<MutexAlgorithm> unless(String allProperty) {
        if (Boolean.getBoolean(allProperty)) {
            return Stream.of(MutexAlgorithm.values());
        }
        return Stream.of(MutexAlgorithm.CENTRALIZED, MutexAlgorithm.RICART_AGRAWALA, MutexAlgorithm.SUZUKI_KASAMI);
    }
}
