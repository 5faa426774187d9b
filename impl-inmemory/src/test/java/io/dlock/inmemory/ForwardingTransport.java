package io.dlock.inmemory;

import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import java.time.Duration;

/**
 * A transport that hands every call to another one; tests extend it to change or count one call. {@code broadcast}
 * is left to {@link Transport}'s default, so it reaches {@link #send} and a subclass that counts sends sees it.
 */
abstract class ForwardingTransport implements Transport {

    private final Transport delegate;

    ForwardingTransport(Transport delegate) {
        this.delegate = delegate;
    }

    @Override
    public void start(Receiver receiver) {
        delegate.start(receiver);
    }

    @Override
    public Duration primaryViewTimeout() {
        return delegate.primaryViewTimeout();
    }

    @Override
    public NodeId self() {
        return delegate.self();
    }

    @Override
    public View view() {
        return delegate.view();
    }

    @Override
    public void send(NodeId to, byte[] payload) {
        delegate.send(to, payload);
    }

    @Override
    public boolean fifo() {
        return delegate.fifo();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
