package io.dlock.protocol;

import io.dlock.spi.NodeId;
import io.dlock.spi.View;

/**
 * Everything a {@link MutexProtocol} is created with.
 *
 * @param self       this node; a member of {@code view}
 * @param view       the view at creation (the first epoch the protocol runs in)
 * @param effects    where the protocol's answers go
 * @param options    algorithm-specific settings
 * @param startsIdle whether every member of {@code view} is known to start idle for this lock, as at
 *                   the start of a simulation. When false (a real node creating a lock's protocol on
 *                   first use, while other members may already hold or wait for it), an algorithm
 *                   that keeps state at one place must first learn it from the other members
 * @param <M>        the algorithm's message type
 */
public record ProtocolContext<M extends ProtocolMessage>(NodeId self, View view, MutexEffects<M> effects,
                                                         ProtocolOptions options, boolean startsIdle) {

    public ProtocolContext {
        if (!view.contains(self)) {
            throw new IllegalArgumentException("node " + self + " is not a member of its view " + view.members());
        }
    }

    /** A context in which every member starts idle (simulations, tests). */
    public ProtocolContext(NodeId self, View view, MutexEffects<M> effects, ProtocolOptions options) {
        this(self, view, effects, options, true);
    }
}
