package io.dlock.runtime;

import io.dlock.LockService;
import io.dlock.metrics.NodeMXBean;

/** {@link NodeMXBean} over a node's {@link LockService#nodeMetrics()}, read afresh for every attribute. */
final class NodeMBean implements NodeMXBean {

    private final LockService node;

    NodeMBean(LockService node) {
        this.node = node;
    }

    @Override
    public long getEpoch() {
        return node.nodeMetrics().epoch();
    }

    @Override
    public boolean isPrimary() {
        return node.nodeMetrics().primary();
    }

    @Override
    public long getViewChanges() {
        return node.nodeMetrics().viewChanges();
    }

    @Override
    public long getNonPrimaryNanos() {
        return node.nodeMetrics().nonPrimaryNanos();
    }
}
