package io.dlock.samples;

import io.dlock.LockService;
import io.dlock.bench.BenchHarness;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Counts the messages dlock nodes sent while a {@link BenchHarness} run's measured window was open: the difference
 * of a running total ({@link io.dlock.LockMetrics#messagesSent()}, summed over the nodes) between the window's
 * opening and its closing.
 */
final class MessageWindow implements BenchHarness.Window {

    private final LongSupplier total;
    private long before;
    private long sent;

    private MessageWindow(LongSupplier total) {
        this.total = total;
    }

    /** The messages the nodes sent for the lock {@code name}. */
    static MessageWindow ofLock(List<LockService> services, String name) {
        return new MessageWindow(() -> services.stream().mapToLong(s -> s.lock(name).metrics().messagesSent()).sum());
    }

    /**
     * The messages the nodes sent for all their locks ({@link LockService#metrics()}: also the locks reclaimed
     * meanwhile; not the reclamation rounds' own messages, which no lock's metrics count).
     */
    static MessageWindow ofNodes(List<LockService> services) {
        return new MessageWindow(() -> services.stream().mapToLong(s -> s.metrics().messagesSent()).sum());
    }

    @Override
    public void opened() {
        before = total.getAsLong();
    }

    @Override
    public void closed() {
        sent = total.getAsLong() - before;
    }

    /** Messages per entry inside the window; NaN without entries. */
    double perEntry(long entries) {
        return entries == 0 ? Double.NaN : (double) sent / entries;
    }
}
