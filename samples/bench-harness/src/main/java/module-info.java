/** The measuring loops of {@code dlock bench}, shared with the baselines; used by {@code io.dlock.samples}. */
module io.dlock.bench {
    exports io.dlock.bench;
}
