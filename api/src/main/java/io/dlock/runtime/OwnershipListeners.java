package io.dlock.runtime;

import io.dlock.OwnershipListener;
import io.dlock.OwnershipLoss;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link OwnershipListener}s of one lock on one node, and how they are told: each on the node's
 * event thread, never on the caller's, one after the other; a listener that throws is logged and the
 * others are still told. Thread-safe.
 */
final class OwnershipListeners {

    private static final Logger LOG = LoggerFactory.getLogger(OwnershipListeners.class);

    private final Set<OwnershipListener> listeners = new CopyOnWriteArraySet<>();
    private final Executor events;

    /** @param events the node's event thread (the one leader listeners are called on) */
    OwnershipListeners(Executor events) {
        this.events = events;
    }

    void add(OwnershipListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void remove(OwnershipListener listener) {
        listeners.remove(listener);
    }

    boolean isEmpty() {
        return listeners.isEmpty();
    }

    /** Tells every listener of {@code loss}, on the event thread; returns at once. */
    void tell(OwnershipLoss loss) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            events.execute(() -> {
                for (OwnershipListener listener : listeners) {
                    try {
                        listener.ownershipLost(loss);
                    } catch (RuntimeException e) {
                        LOG.warn("ownership listener {} of lock '{}' threw", listener, loss.lockName(), e);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("lock '{}': ownership loss not told, the node is closing", loss.lockName());
        }
    }
}
