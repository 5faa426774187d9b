package io.dlock.samples.bench;

import io.dlock.LockMetrics;
import io.dlock.LockService;
import io.dlock.bench.BenchHarness;
import java.util.List;
import java.util.function.Supplier;

/**
 * Counts the messages dlock nodes sent while a {@link BenchHarness} run's measured window was open, and the
 * transport messages (frames) that carried them: the differences of running totals ({@link LockMetrics#messagesSent()}
 * and {@link LockMetrics#framesSent()}, summed over the nodes) between the window's opening and its closing.
 */
final class MessageWindow implements BenchHarness.Window {

    private final Supplier<LockMetrics> total;
    private LockMetrics before;
    private long sent;
    private long frames;

    private MessageWindow(Supplier<LockMetrics> total) {
        this.total = total;
    }

    /** The messages the nodes sent for the lock {@code name}. */
    static MessageWindow ofLock(List<LockService> services, String name) {
        return new MessageWindow(() -> services.stream().map(s -> s.lock(name).metrics()).reduce(LockMetrics::plus)
                .orElseThrow());
    }

    /**
     * The messages the nodes sent for all their locks ({@link LockService#metrics()}: also the locks reclaimed
     * meanwhile; not the reclamation rounds' own messages, which no lock's metrics count).
     */
    static MessageWindow ofNodes(List<LockService> services) {
        return new MessageWindow(() -> services.stream().map(LockService::metrics).reduce(LockMetrics::plus)
                .orElseThrow());
    }

    @Override
    public void opened() {
        before = total.get();
    }

    @Override
    public void closed() {
        LockMetrics after = total.get();
        sent = after.messagesSent() - before.messagesSent();
        frames = after.framesSent() - before.framesSent();
    }

    /** Messages per entry inside the window; NaN without entries. */
    double perEntry(long entries) {
        return entries == 0 ? Double.NaN : (double) sent / entries;
    }

    /** Messages per second inside a window of {@code seconds}. */
    double perSecond(double seconds) {
        return sent / seconds;
    }

    /** Transport messages per entry inside the window; NaN without entries. */
    double framesPerEntry(long entries) {
        return entries == 0 ? Double.NaN : (double) frames / entries;
    }
}
