package io.dlock.samples;

import picocli.CommandLine.Option;

/** The {@code --seed} option of the commands that run the simulator: every run with one seed is replayable. */
final class SeedOption {

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "seed of the simulated runs (default ${DEFAULT-VALUE})")
    long seed;
}
