package io.dlock.inmemory;

import io.dlock.DlockConfig;
import io.dlock.spi.Transport;
import io.dlock.spi.TransportFactory;

/**
 * {@code dlock.transport=inmemory}: an endpoint on the JVM-wide {@link InMemoryNetwork#shared()
 * in-process network}, in the cluster named by {@code dlock.cluster}, with the id from
 * {@code dlock.node.id} (or the next free one) and the delay from {@code dlock.inmemory.delay-ms}.
 */
public final class InMemoryTransportFactory implements TransportFactory {

    /** The transport's configuration name. */
    public static final String NAME = "inmemory";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Transport create(DlockConfig config) {
        Long id = config.nodeId().isPresent() ? config.nodeId().getAsLong() : null;
        return InMemoryNetwork.shared().endpoint(config.cluster(), id, config.inMemoryDelay());
    }
}
