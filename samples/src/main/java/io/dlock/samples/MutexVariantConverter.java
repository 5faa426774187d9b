package io.dlock.samples;

import io.dlock.MutexAlgorithm;
import io.dlock.MutexVariant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converts a mutual-exclusion algorithm's configuration name ({@code ricart-agrawala}) or a variant's
 * ({@code maekawa-basic}) to a {@link MutexVariant}; an unknown name is refused with every allowed one.
 */
public final class MutexVariantConverter implements ITypeConverter<MutexVariant> {

    @Override
    public MutexVariant convert(String value) {
        String name = value.trim();
        try {
            return MutexVariant.named(name).orElseGet(() -> of(MutexAlgorithm.fromConfigName(name)));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** {@code algorithm} with no option fixed, under its own name. */
    public static MutexVariant of(MutexAlgorithm algorithm) {
        return new MutexVariant(algorithm.configName(), algorithm, Map.of());
    }

    /** Every registered algorithm, in registry order (the variants are not registered). */
    public static List<MutexVariant> registered() {
        return Arrays.stream(MutexAlgorithm.values()).map(MutexVariantConverter::of).toList();
    }
}
