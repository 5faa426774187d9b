package io.dlock.samples.bench;

import io.dlock.bench.PeerProtocol;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One peer's cluster kept up in the baselines jar's JVM ({@code --serve}), which runs one workload per request: how
 * {@code dlock bench --baselines} measures a peer's run right after dlock's run of the same workload. The protocol is
 * {@link PeerProtocol}'s: the jar prints {@link PeerProtocol#READY} once its cluster is up, then answers each command
 * line with one line, a JSON row or {@link PeerProtocol#REFUSED} and why. Every wait is bounded.
 */
final class PeerSession implements AutoCloseable {

    /** Seconds the jar may take to start its cluster and run its unmeasured passes. */
    static final long START_SECONDS = 600;

    private final String peer;
    private final JarLines jar;
    private final Writer commands;
    private final long answerSeconds;
    /** Whether the jar ended or fell silent: it is not asked to quit, only killed. */
    private boolean broken;

    private PeerSession(String peer, JarLines jar, long answerSeconds) {
        this.peer = peer;
        this.jar = jar;
        this.commands = new OutputStreamWriter(jar.process().getOutputStream(), StandardCharsets.UTF_8);
        this.answerSeconds = answerSeconds;
    }

    /**
     * Starts the jar on {@code command} (which ends in {@code --serve}) and waits until its cluster is up.
     *
     * @param answerSeconds how long one workload may take, from the command to the jar's answer
     * @return the session, or the jar's skip line ({@link PeerProtocol#SKIPPED}, why) if the peer cannot run here
     * @throws IllegalStateException if the jar ends, or is not ready within {@link #START_SECONDS}, without a skip line
     */
    static Started start(String peer, List<String> command, long answerSeconds) throws IOException,
            InterruptedException {
        PeerSession session = new PeerSession(peer, JarLines.start(command, peer), answerSeconds);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            while (true) {
                String line = session.next(deadline, "to start its cluster");
                if (line.equals(PeerProtocol.READY)) {
                    return new Started(Optional.of(session), Optional.empty());
                }
                if (line.startsWith(PeerProtocol.SKIPPED)) {
                    session.close();
                    return new Started(Optional.empty(), Optional.of(line.substring(PeerProtocol.SKIPPED.length())));
                }
                // anything else before READY (a library's banner on standard output) is not ours
            }
        } catch (RuntimeException | InterruptedException e) {
            session.close();
            throw e;
        }
    }

    /**
     * What {@link #start} gave: a running session, or why the peer was skipped.
     *
     * @param session the session, if the peer runs here
     * @param skipped "name: why, and how to install its server", if it does not
     */
    record Started(Optional<PeerSession> session, Optional<String> skipped) {
    }

    /**
     * The peer's row of one workload, run now.
     *
     * @param command the jar's command: {@code uncontended}, {@code contended T} or {@code per-key K T}
     * @throws IllegalStateException if the jar refuses the command, ends, or does not answer in time
     */
    BenchRow run(String command) throws IOException, InterruptedException {
        commands.write(command + "\n");
        commands.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(answerSeconds);
        while (true) {
            String line = next(deadline, "to run '" + command + "'");
            if (line.startsWith(PeerProtocol.REFUSED)) {
                throw new IllegalStateException("baseline " + peer + " refused a command: "
                        + line.substring(PeerProtocol.REFUSED.length()));
            }
            Optional<BenchRow> row = BenchRow.parse(line);
            if (row.isPresent()) {
                return row.get();
            }
        }
    }

    /**
     * Asks the jar to stop its cluster and waits up to 60 s for it to end; then it is killed. A jar that ended or did
     * not answer in time is killed at once.
     */
    @Override
    public void close() throws InterruptedException {
        Process process = jar.process();
        if (broken) {
            process.destroyForcibly();
            return;
        }
        try {
            commands.write(PeerProtocol.QUIT + "\n");
            commands.flush();
            commands.close();
        } catch (IOException e) {
            // it has ended already
        }
        try {
            process.waitFor(60, TimeUnit.SECONDS);
        } finally {
            process.destroyForcibly();
        }
    }

    private String next(long deadline, String what) throws InterruptedException {
        String line = jar.next(deadline);
        if (line == null || line == JarLines.END) {
            broken = true;
            throw new IllegalStateException("baseline " + peer + (line == null ? " took too long " + what
                    : " ended while it was asked " + what) + " (its standard error is above)");
        }
        return line;
    }
}
