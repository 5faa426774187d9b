package io.dlock.inmemory.sim;

import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.reclaim.PeerCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One node's state for one lock name in a {@link KeyedSimulation}, as a runtime lock engine holds it: the
 * algorithm's instance (replaced when a reclamation commits while events waited), its per-peer message
 * counters, whether a reclamation round froze it and the events that wait meanwhile, its running timers and
 * when the node's client last used it.
 */
final class KeyedLock<M extends ProtocolMessage> {

    final String name;
    final PeerCounters counters = new PeerCounters();
    final List<Runnable> held = new ArrayList<>();
    /** Running timers: name to the generation of its last setTimer (a cancelled or replaced timer does not fire). */
    final Map<String, Long> timers = new HashMap<>();
    MutexProtocol<M> protocol;
    boolean frozen;
    long timerGeneration;
    long lastUsed;

    KeyedLock(String name) {
        this.name = name;
    }
}
