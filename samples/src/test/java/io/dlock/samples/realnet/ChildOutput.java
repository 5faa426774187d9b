package io.dlock.samples.realnet;

import io.dlock.ClusterView;
import io.dlock.LockService;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The standard output of a child JVM of the real-network tests ({@link RealNetNode}, {@link NemesisNode}): one
 * stream, each line written whole (threads never interleave inside a line) and flushed at once, so that the
 * lines written before a {@code kill -9} have reached {@link RealNetCluster}.
 */
final class ChildOutput {

    private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

    private ChildOutput() {
    }

    /** Writes one line. */
    static void line(String line) {
        synchronized (OUT) {
            OUT.println(line);
        }
    }

    /**
     * Writes one line that starts with {@code System.nanoTime()} read while no other line can be written, so
     * the times of one JVM's lines increase in the order they are written.
     */
    static void timedLine(String prefix, String rest) {
        synchronized (OUT) {
            OUT.println(prefix + System.nanoTime() + " " + rest);
        }
    }

    /**
     * Writes an event {@code VIEW ms epoch size primary} each time the node's view or its primary state changes
     * (polled every 20 ms), until interrupted; for a daemon thread.
     */
    static void watchViews(LockService service) {
        watchViews(service, change -> { });
    }

    /** As {@link #watchViews(LockService)}, and tells {@code onChange} each change as {@code "epoch size primary"}. */
    static void watchViews(LockService service, java.util.function.Consumer<String> onChange) {
        long epoch = -1;
        boolean primary = false;
        try {
            while (true) {
                ClusterView v = service.view();
                boolean p = v.primary();
                if (v.epoch() != epoch || p != primary) {
                    epoch = v.epoch();
                    primary = p;
                    line("VIEW " + System.currentTimeMillis() + " " + v.epoch() + " " + v.size() + " " + p);
                    onChange.accept(v.epoch() + " " + v.size() + " " + p);
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
