package io.dlock.samples;

import io.dlock.MutexVariant;
import java.util.List;
import picocli.CommandLine.Option;

/** The {@code --algorithms} option: which mutual-exclusion algorithms or variants a command runs (all by default). */
public final class MutexAlgorithmsOption {

    @Option(names = "--algorithms", split = ",", paramLabel = "NAME", converter = MutexVariantConverter.class,
            description = "algorithms or variants (maekawa-basic, raynal-original), comma-separated "
                    + "(default: all registered)")
    public List<MutexVariant> algorithms;

    /** The chosen ones, in the order given; every registered algorithm if the option is absent. */
    public List<MutexVariant> chosen() {
        return algorithms == null ? MutexVariantConverter.registered() : algorithms;
    }
}
