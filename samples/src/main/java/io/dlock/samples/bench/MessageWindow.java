package io.dlock.samples.bench;

import io.dlock.LockMetrics;
import io.dlock.LockService;
import io.dlock.bench.BenchHarness;
import java.util.List;
import java.util.function.Supplier;

/**
 * Counts the messages dlock nodes sent while a {@link BenchHarness} run's measured window was open, and the
 * transport messages (frames) that carried them: the differences of running totals ({@link LockMetrics#messagesSent()}
 * and {@link LockMetrics#framesSent()}, summed over the nodes) between the window's opening and its closing. For
 * the nodes' totals ({@link #ofNodes}) also how the messages spread over the nodes: each node's messages handled
 * (sent plus received) in the window, the largest share of one node and Jain's index over the nodes.
 */
final class MessageWindow implements BenchHarness.Window {

    private final Supplier<LockMetrics> total;
    /** Each node's running totals, or empty when the window counts one lock only. */
    private final List<Supplier<LockMetrics>> perNode;
    private LockMetrics before;
    private long sent;
    private long frames;
    private long[] handledBefore = new long[0];
    private long[] handled = new long[0];

    private MessageWindow(Supplier<LockMetrics> total, List<Supplier<LockMetrics>> perNode) {
        this.total = total;
        this.perNode = perNode;
    }

    /** The messages the nodes sent for the lock {@code name}. */
    static MessageWindow ofLock(List<LockService> services, String name) {
        return new MessageWindow(() -> services.stream().map(s -> s.lock(name).metrics()).reduce(LockMetrics::plus)
                .orElseThrow(), List.of());
    }

    /**
     * The messages the nodes sent for all their locks ({@link LockService#metrics()}: also the locks reclaimed
     * meanwhile; not the reclamation rounds' own messages, which no lock's metrics count).
     */
    static MessageWindow ofNodes(List<LockService> services) {
        return new MessageWindow(() -> services.stream().map(LockService::metrics).reduce(LockMetrics::plus)
                .orElseThrow(), services.stream().<Supplier<LockMetrics>>map(s -> s::metrics).toList());
    }

    @Override
    public void opened() {
        handledBefore = handledPerNode();
        before = total.get();
    }

    @Override
    public void closed() {
        LockMetrics after = total.get();
        long[] handledAfter = handledPerNode();
        sent = after.messagesSent() - before.messagesSent();
        frames = after.framesSent() - before.framesSent();
        handled = new long[handledAfter.length];
        for (int i = 0; i < handled.length; i++) {
            handled[i] = handledAfter[i] - handledBefore[i];
        }
    }

    private long[] handledPerNode() {
        return perNode.stream().map(Supplier::get).mapToLong(m -> m.messagesSent() + m.messagesReceived()).toArray();
    }

    /**
     * The largest share of the window's messages handled (sent plus received) by one node: 1/N when every node
     * handles as many, 1/2 when one node is an end of every message; NaN without per-node counts or messages.
     */
    double maxNodeShare() {
        long sum = 0;
        long max = 0;
        for (long h : handled) {
            sum += h;
            max = Math.max(max, h);
        }
        return sum == 0 ? Double.NaN : (double) max / sum;
    }

    /** Jain's index over the nodes' messages handled in the window (1 = even); NaN without per-node counts or messages. */
    double nodeJain() {
        return handled.length == 0 ? Double.NaN : BenchHarness.jain(handled);
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
