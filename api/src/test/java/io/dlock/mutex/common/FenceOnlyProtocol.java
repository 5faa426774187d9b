package io.dlock.mutex.common;

import io.dlock.NodeId;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.View;

/**
 * A {@link FencedMutexProtocol} that does nothing but keep its highest fence: what the tests of the fencing
 * rule and of the {@link TokenCensus} (which raises an algorithm's fence) need of an algorithm.
 */
final class FenceOnlyProtocol extends FencedMutexProtocol<ProtocolMessage> {

    /** A protocol whose tokens start above {@code floor}. */
    FenceOnlyProtocol(long floor) {
        super(floor);
    }

    /** A protocol that has seen no token yet: the first issued is 1. */
    FenceOnlyProtocol() {
        this(0);
    }

    @Override
    public void onRequest() {
    }

    @Override
    public void onRelease() {
    }

    @Override
    public void onMessage(NodeId from, ProtocolMessage message) {
    }

    @Override
    public void onView(View view) {
    }
}
