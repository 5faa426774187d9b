/** The measuring loops of {@code dlock bench}, shared with the baselines; used by {@code io.dlock.samples}. */
module io.dlock.bench {
    requires jdk.management; // the process CPU time of a run (ProcessCpuClock)
    exports io.dlock.bench;
}
