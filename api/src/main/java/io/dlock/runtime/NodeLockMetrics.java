package io.dlock.runtime;

import io.dlock.LockMetrics;
import io.dlock.NodeId;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's lock counters ({@link io.dlock.LockService#metrics()}): the sum of its live lock drivers', of
 * those a reclamation buried, and of the messages the node dropped as foreign (malformed, of another algorithm,
 * of a bad name), the first of which is logged. Thread-safe.
 */
final class NodeLockMetrics {

    /** The node's logger: operators find the dropped message where they always did. */
    private static final Logger LOG = LoggerFactory.getLogger(NodeRuntime.class);

    private final String algorithm;
    /** This node's id, for the log (known once the transport started). */
    private final Supplier<NodeId> self;
    private final LongAdder foreign = new LongAdder();
    private volatile boolean foreignLogged;
    /** The counters of drivers a reclamation buried; guarded by this. */
    private LockMetrics buried;

    NodeLockMetrics(String algorithm, Supplier<NodeId> self) {
        this.algorithm = algorithm;
        this.self = self;
        this.buried = LockMetrics.empty(algorithm);
    }

    /** The node's totals, with the live drivers' counters now. */
    LockMetrics sum(Iterable<LockDriver<?>> live) {
        LockMetrics sum;
        synchronized (this) {
            sum = buried.plus(LockMetrics.builder(algorithm).malformedDropped(foreign.sum()).build());
        }
        for (LockDriver<?> d : live) {
            sum = sum.plus(d.metrics());
        }
        return sum;
    }

    /** A reclamation buried a driver whose last counters were {@code last}: they join the totals. */
    synchronized void buried(LockMetrics last) {
        buried = buried.plus(last);
    }

    /** The node dropped a message from {@code from}: counted, and logged if it is the first. */
    void foreign(NodeId from, String why) {
        foreign.increment();
        if (!foreignLogged) {
            foreignLogged = true;
            LOG.warn("node {}: dropped a message from {}: {}; further ones are only counted", self.get(), from, why);
        }
    }
}
