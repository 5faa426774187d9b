package io.dlock.spi;

import io.dlock.NodeId;
import java.time.Duration;
import java.util.Objects;

/**
 * A transport that hands every call to another one: the base of a transport that changes or watches a few calls of
 * another (dlock's runtime batches sends through one; tests count or delay sends). {@link #broadcast} is left to
 * {@link Transport}'s default, so it reaches {@link #send} and a subclass that changes or counts sends sees
 * broadcasts too; a subclass that wants the other transport's own broadcast overrides it.
 */
public abstract class ForwardingTransport implements Transport {

    private final Transport delegate;

    /** @param delegate the transport every call goes to */
    protected ForwardingTransport(Transport delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The transport every call goes to. */
    protected final Transport delegate() {
        return delegate;
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
    public void viewLooksStale() {
        delegate.viewLooksStale();
    }

    @Override
    public boolean fifo() {
        return delegate.fifo();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
