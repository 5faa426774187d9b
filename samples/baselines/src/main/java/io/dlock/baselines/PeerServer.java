package io.dlock.baselines;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.PeerProtocol;
import java.io.BufferedReader;
import java.io.PrintStream;
import java.util.Optional;

/**
 * The jar's {@code --serve} mode: one peer cluster stays up and runs one workload per command read from standard
 * input, so that {@code dlock bench --baselines} can run each workload of dlock's right before the peer's same workload
 * (a pair measured seconds apart, not minutes, on a machine whose load changes from minute to minute).
 *
 * <p>The protocol is {@link PeerProtocol}'s: once the cluster is up (and warmed, with {@code --warm-passes}), this
 * prints {@link PeerProtocol#READY}; then each command line gets exactly one answer line, a JSON row or
 * {@link PeerProtocol#REFUSED} and why. Each workload runs on lock names of its own (the n-th command's names start
 * with {@code s<n>-}, so a workload asked twice does not find warm locks).
 */
final class PeerServer {

    private final Peer peer;
    private final PeerCluster cluster;
    private final BenchHarness harness;
    private final int nodes;

    PeerServer(Peer peer, PeerCluster cluster, BenchHarness harness, int nodes) {
        this.peer = peer;
        this.cluster = cluster;
        this.harness = harness;
        this.nodes = nodes;
    }

    /**
     * Prints {@link PeerProtocol#READY}, then answers every command of {@code in} until {@link PeerProtocol#QUIT} or
     * its end.
     *
     * @return whether every run was without failures
     */
    boolean serve(BufferedReader in, PrintStream out) throws Exception {
        out.println(PeerProtocol.READY);
        out.flush();
        boolean clean = true;
        int served = 0;
        for (String line = in.readLine(); line != null && !line.trim().equals(PeerProtocol.QUIT); line = in.readLine()) {
            Optional<String> row;
            try {
                row = answer(line.trim(), new PeerWorkloads(peer, cluster, harness, nodes, "s" + (++served) + "-"));
            } catch (NumberFormatException e) {
                row = Optional.empty();
            }
            if (row.isEmpty()) {
                out.println(PeerProtocol.REFUSED + "'" + line + "': expected " + PeerProtocol.UNCONTENDED
                        + ", contended T, per-key K T (T 1..64, K >= 1) or " + PeerProtocol.QUIT);
            } else {
                clean &= row.get().contains("\"failures\": 0,");
                out.println(row.get());
            }
            out.flush();
        }
        return clean;
    }

    /** The row of one command, or empty if the line is not a command of the protocol. */
    private static Optional<String> answer(String line, PeerWorkloads workloads) throws Exception {
        String[] w = line.split("\\s+");
        if (w.length == 1 && w[0].equals(PeerProtocol.UNCONTENDED)) {
            return Optional.of(workloads.uncontended());
        }
        if (w.length == 2 && w[0].equals(PeerProtocol.CONTENDED) && threads(w[1])) {
            return Optional.of(workloads.contended(Integer.parseInt(w[1])));
        }
        if (w.length == 3 && w[0].equals(PeerProtocol.PER_KEY) && Integer.parseInt(w[1]) >= 1 && threads(w[2])) {
            return Optional.of(workloads.perKey(Integer.parseInt(w[1]), Integer.parseInt(w[2])));
        }
        return Optional.empty();
    }

    private static boolean threads(String t) {
        int n = Integer.parseInt(t);
        return n >= 1 && n <= 64;
    }
}
