package io.dlock.bench;

/**
 * The lines between {@code dlock bench --baselines} and the baselines jar it runs (module {@code samples/baselines}),
 * one JVM per peer, over the jar's standard input and output. Both sides use these constants, so they cannot drift.
 *
 * <ul>
 *   <li>A peer whose server is not installed prints {@link #SKIPPED}, its name, ": " and how to install it, and
 *       exits 0.</li>
 *   <li>In the whole-run mode the jar prints one JSON row per workload (the shape of {@code dlock bench --format
 *       json}) and exits.</li>
 *   <li>With {@code --serve} it prints {@link #READY} once its cluster is up, then answers each command line with
 *       exactly one line: a JSON row for {@link #UNCONTENDED}, {@code contended T} or {@code per-key K T} (T threads
 *       per node, K names), or {@link #REFUSED} and why for any other line; {@link #QUIT}, or the end of its input,
 *       stops the cluster.</li>
 * </ul>
 * Other lines on the jar's standard output (a library's banner) are not the protocol's and are skipped.
 */
public final class PeerProtocol {

    /** The start of the line of a peer that cannot run here: then its name, ": ", why and how to install it. */
    public static final String SKIPPED = "# skipped ";

    /** The line once the cluster is up and ready for commands ({@code --serve}). */
    public static final String READY = "# ready";

    /** The start of the answer to a line that is not a command, followed by why. */
    public static final String REFUSED = "# refused ";

    /** The command that stops the cluster. */
    public static final String QUIT = "quit";

    /** The command of the uncontended workload. */
    public static final String UNCONTENDED = "uncontended";

    /** The first word of the contended workload's command, {@link #contended}. */
    public static final String CONTENDED = "contended";

    /** The first word of the per-key workload's command, {@link #perKey}. */
    public static final String PER_KEY = "per-key";

    private PeerProtocol() {
    }

    /** The command of the contended workload with {@code threads} threads per node. */
    public static String contended(int threads) {
        return CONTENDED + " " + threads;
    }

    /** The command of the per-key workload: {@code threads} threads per node, each entry one of {@code keys} names. */
    public static String perKey(int keys, int threads) {
        return PER_KEY + " " + keys + " " + threads;
    }
}
