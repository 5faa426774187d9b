package io.dlock.samples;

import picocli.CommandLine.Option;

/** The {@code --nodes} option of a mutual-exclusion sweep ({@code dlock sweep}, {@code dlock report}). */
final class SweepNodesOption {

    @Option(names = "--nodes", defaultValue = "2..64", paramLabel = "SPEC", converter = NodeCounts.SweepRange.class,
            description = "node counts: 2..1024 (doubling: 2,4,...,1024), 2..20:3 (step 3), a list 3,5,8, or a mix "
                    + "(2-" + NodeCounts.MAX_SWEEP_NODES + ", default ${DEFAULT-VALUE})")
    NodeCounts nodes;
}
