package io.dlock.samples;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The {@code --entries} option of the simulator commands that measure messages per entry: at least one. */
final class EntriesOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--entries", paramLabel = "E", defaultValue = "200",
            description = "critical-section entries per run, spread evenly over the nodes (default ${DEFAULT-VALUE})")
    long entries;

    /** The entries; a usage error of the command unless at least 1. */
    long checked() {
        Cli.checkAtLeast(mixee, "--entries", entries, 1);
        return entries;
    }
}
