package io.dlock.samples;

import io.dlock.MutexVariant;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options of the commands that measure mutual-exclusion algorithms on the simulator ({@code compare},
 * {@code sweep}, {@code report}): which algorithms, how many entries per run, and the source notes.
 */
final class MutexRunOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Mixin
    MutexAlgorithmsOption algorithms;

    @Option(names = "--entries", paramLabel = "E", defaultValue = "200",
            description = "critical-section entries per run, spread evenly over the nodes (default ${DEFAULT-VALUE})")
    long entries;

    @Mixin
    SeedOption seed;

    /** The chosen algorithms and variants; every registered algorithm if {@code --algorithms} is absent. */
    List<MutexVariant> chosen() {
        return algorithms.chosen();
    }

    /** The entries per run; a usage error of the command unless at least 1. */
    long entries() {
        Cli.checkAtLeast(mixee, "--entries", entries, 1);
        return entries;
    }

    /** The seed of every run. */
    long seed() {
        return seed.seed;
    }
}
