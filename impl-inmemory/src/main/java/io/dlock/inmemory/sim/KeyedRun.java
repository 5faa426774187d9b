package io.dlock.inmemory.sim;

import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.reclaim.LockVote;
import io.dlock.reclaim.ReclaimCodec;
import io.dlock.reclaim.ReclaimMessage;
import io.dlock.reclaim.Reclamation;
import io.dlock.reclaim.RoundId;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One run of a {@link KeyedSimulation}: the nodes, their lock states by name, the clients, the reclamation
 * protocol and the checks, driven by the simulator's {@link EventQueue} in virtual time (ordered by time, then by the order
 * they were scheduled, so a run is a function of its seed). Each node hosts its locks as the runtime's lock
 * engines do: a lock is created on its first event (a request or a message), with the node's fencing floor; a
 * frozen lock keeps its events until the round's decision; a committed lock is dropped, or created afresh when
 * events waited for it; every message of a lock is counted per peer for the votes, and encoded and decoded on
 * the way.
 */
final class KeyedRun<M extends ProtocolMessage> {

    private final MutexProtocolDefinition<M> definition;
    private final ProtocolOptions options;
    private final KeyedRunSettings settings;
    private final MessageCodec<M> codec;
    private final ReclaimCodec reclaimCodec = new ReclaimCodec();
    private final SplittableRandom random;
    private final ZipfKeys keys;
    private final View view;
    /** The simulator's own queue, in (time, order scheduled); each event carries its step as a Runnable. */
    private final EventQueue queue = new EventQueue();
    private final List<Node> nodes = new ArrayList<>();
    /** FIFO algorithms: the latest delivery time scheduled on each channel (from, to), so none overtakes another. */
    private final long[][] channelTail;

    private long now;
    private final Map<String, Integer> holders = new HashMap<>();
    private final Map<String, Long> lastFence = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final BitSet used = new BitSet();
    private long requests;
    private long entries;
    private long lockMessages;
    private long reclaimMessages;
    private long reclaimed;
    private long incarnations;
    private long liveStates;
    private long peakStates;

    KeyedRun(MutexProtocolDefinition<M> definition, ProtocolOptions options, KeyedRunSettings settings) {
        this.definition = definition;
        this.options = options;
        this.settings = settings;
        this.codec = definition.codec();
        this.random = new SplittableRandom(settings.seed());
        this.keys = new ZipfKeys(settings.names(), settings.zipf());
        this.view = View.ofRange(1, settings.nodes());
        this.channelTail = new long[settings.nodes()][settings.nodes()];
        for (int i = 0; i < settings.nodes(); i++) {
            nodes.add(new Node(i));
        }
    }

    KeyedResult run() {
        for (Node node : nodes) {
            node.scheduleRequest();
            node.scheduleSweep();
        }
        boolean truncated = false;
        while (!queue.isEmpty()) {
            Event next = queue.poll();
            if (next.time > settings.maxTime()) {
                truncated = true;
                break;
            }
            now = next.time;
            Runnable action = (Runnable) next.message;
            queue.recycle(next);
            action.run();
        }
        return new KeyedResult(definition.name(), settings.nodes(), settings.names(), settings.seed(), requests,
                entries, used.cardinality(), lockMessages, reclaimMessages, reclaimed, incarnations, peakStates,
                liveStates, now, truncated, violations, replay());
    }

    private String replay() {
        return KeyedSimulation.of(definition).options(options).nodes(settings.nodes()).names(settings.names())
                .zipf(settings.zipf()).requestsPerNode(settings.requestsPerNode())
                .thinkAndHold(settings.thinkMax(), settings.holdMax()).delay(settings.delay())
                .idleExpiry(settings.idleExpiry(), settings.sweepEvery()).seed(settings.seed()).toString();
    }

    private void at(long time, Runnable action) {
        Event event = queue.obtain(Event.ACTION, -1);
        event.message = action;
        queue.add(time, event);
    }

    private long draw(long max) {
        return max == 0 ? 0 : random.nextLong(max + 1);
    }

    private boolean clientsDone() {
        return nodes.stream().allMatch(n -> n.remaining == 0 && n.want == null);
    }

    private boolean settled() {
        return clientsDone() && liveStates == 0 && nodes.stream().allMatch(n -> n.reclamation.openRounds() == 0);
    }

    /** The safety checks at a grant: the name has no other holder, and the token is above every earlier one. */
    private void checkGrant(Node node, String name, long fence) {
        Integer other = holders.putIfAbsent(name, node.index);
        if (other != null) {
            violations.add("t=" + now + ": node " + node.index + " entered " + name + " held by node " + other);
        }
        Long last = lastFence.put(name, fence);
        if (last != null && fence <= last) {
            violations.add("t=" + now + ": " + name + " fencing token " + fence + " at node " + node.index
                    + " not above the previous " + last);
        }
    }

    /** One node: its client, its locks by name, its reclamation half and its fencing floor. */
    private final class Node implements Reclamation.Port {
        final int index;
        final NodeId self;
        final Map<String, KeyedLock<M>> locks = new TreeMap<>();
        final Map<String, KeyedLock<M>> frozen = new HashMap<>();
        /**
         * Names this node voted absent for in an undecided round: a state created for one of them meanwhile
         * starts frozen, so that it belongs to the lock's next incarnation (fenced above the round's floor).
         */
        final Set<String> reserved = new HashSet<>();
        final Reclamation reclamation;
        long floor;
        int remaining = settings.requestsPerNode();
        /** The name the client wants or holds, null while it thinks. */
        String want;

        Node(int index) {
            this.index = index;
            this.self = view.member(index);
            this.reclamation = new Reclamation(self, view, this);
        }

        // ---- client ----------------------------------------------------------------------------

        void scheduleRequest() {
            if (remaining == 0) {
                return;
            }
            at(now + draw(settings.thinkMax()), () -> {
                int k = keys.next(random);
                used.set(k);
                String name = ZipfKeys.name(k);
                remaining--;
                requests++;
                want = name;
                KeyedLock<M> lock = lock(name);
                lock.lastUsed = now;
                handle(lock, () -> lock.protocol.onRequest());
            });
        }

        void granted(KeyedLock<M> lock, long fence) {
            if (!lock.name.equals(want)) {
                violations.add("t=" + now + ": node " + index + " granted " + lock.name + " it did not request");
                return;
            }
            entries++;
            checkGrant(this, lock.name, fence);
            lock.lastUsed = now;
            at(now + draw(settings.holdMax()), () -> {
                holders.remove(lock.name, index);
                lock.lastUsed = now;
                want = null;
                handle(lock, () -> lock.protocol.onRelease());
                scheduleRequest();
            });
        }

        // ---- locks -------------------------------------------------------------------------------

        /** The live state of {@code name}, created (fenced above the node's floor) if there is none. */
        KeyedLock<M> lock(String name) {
            KeyedLock<M> lock = locks.get(name);
            if (lock == null) {
                lock = new KeyedLock<>(name);
                lock.protocol = create(lock);
                lock.frozen = reserved.contains(name); // created after an absent vote: waits for the decision
                locks.put(name, lock);
                liveStates++;
                peakStates = Math.max(peakStates, liveStates);
            }
            return lock;
        }

        private MutexProtocol<M> create(KeyedLock<M> lock) {
            incarnations++;
            lock.counters.clear();
            lock.timers.clear();
            return definition.create(new ProtocolContext<>(self, view, new Effects(lock), options, false, floor,
                    lock.name));
        }

        /** Runs {@code event} now, or keeps it until the round that froze the lock is decided. */
        void handle(KeyedLock<M> lock, Runnable event) {
            if (lock.frozen) {
                lock.held.add(event);
            } else {
                event.run();
            }
        }

        void deliver(NodeId from, String name, M message) {
            KeyedLock<M> lock = lock(name);
            handle(lock, () -> {
                lock.counters.received(from);
                lock.protocol.onMessage(from, message);
            });
        }

        // ---- reclamation ---------------------------------------------------------------------------

        void scheduleSweep() {
            at(now + settings.sweepEvery(), () -> {
                List<String> idle = new ArrayList<>();
                for (KeyedLock<M> lock : locks.values()) {
                    if (!lock.frozen && !lock.name.equals(want) && now - lock.lastUsed >= settings.idleExpiry()
                            && lock.protocol.atRest()) {
                        idle.add(lock.name);
                    }
                }
                if (!idle.isEmpty()) {
                    reclamation.nominate(idle);
                }
                if (!settled()) {
                    scheduleSweep();
                }
            });
        }

        @Override
        public void send(NodeId to, ReclaimMessage message) {
            reclaimMessages++;
            byte[] bytes = reclaimCodec.toBytes(message);
            Node target = nodes.get(view.indexOf(to));
            at(now + settings.delay().draw(random), () -> target.reclamation.onMessage(self, reclaimCodec.fromBytes(bytes)));
        }

        @Override
        public void freeze(RoundId round, List<String> names) {
            List<LockVote> votes = new ArrayList<>(names.size());
            for (String name : names) {
                KeyedLock<M> lock = locks.get(name);
                if (lock == null) {
                    votes.add(reserved.add(name) ? LockVote.absent(name) : LockVote.busy(name));
                } else if (lock.frozen || name.equals(want) || now - lock.lastUsed < settings.idleExpiry()
                        || !lock.protocol.atRest()) {
                    votes.add(LockVote.busy(name));
                } else {
                    lock.frozen = true;
                    frozen.put(name, lock);
                    votes.add(lock.counters.atRestVote(name, lock.protocol.highestFence()));
                }
            }
            at(now, () -> reclamation.onLocalVotes(round, votes));
        }

        @Override
        public void commit(List<String> names, long roundFloor) {
            floor = Math.max(floor, roundFloor);
            for (String name : names) {
                KeyedLock<M> lock = decided(name);
                if (lock == null) {
                    continue; // no state here, at the vote or since
                }
                reclaimed++;
                lock.frozen = false;
                if (lock.held.isEmpty()) {
                    locks.remove(name);
                    liveStates--;
                } else {
                    lock.protocol = create(lock); // events waited: the next incarnation handles them
                    replay(lock);
                }
            }
        }

        @Override
        public void thaw(List<String> names) {
            for (String name : names) {
                KeyedLock<M> lock = decided(name);
                if (lock != null) {
                    lock.frozen = false;
                    replay(lock);
                }
            }
        }

        /** The frozen state a round's decision applies to: the one that voted, or one created after an absent vote. */
        private KeyedLock<M> decided(String name) {
            KeyedLock<M> lock = frozen.remove(name);
            if (lock == null && reserved.remove(name)) {
                lock = locks.get(name);
            }
            return lock != null && lock.frozen ? lock : null;
        }

        private void replay(KeyedLock<M> lock) {
            List<Runnable> events = new ArrayList<>(lock.held);
            lock.held.clear();
            for (Runnable event : events) {
                handle(lock, event);
            }
        }

        /** The algorithm's effects for one lock: messages through the codec with a drawn delay, timers, grants. */
        private final class Effects implements MutexEffects<M> {
            private final KeyedLock<M> lock;

            Effects(KeyedLock<M> lock) {
                this.lock = lock;
            }

            @Override
            public void send(NodeId to, M message) {
                lock.counters.sent(to);
                lockMessages++;
                byte[] bytes = codec.toBytes(message);
                Node target = nodes.get(view.indexOf(to));
                String name = lock.name;
                long due = now + settings.delay().draw(random);
                if (definition.requiresFifo()) { // equal times keep their order: the queue breaks ties by schedule order
                    due = Math.max(due, channelTail[index][target.index]);
                    channelTail[index][target.index] = due;
                }
                at(due, () -> target.deliver(self, name, codec.fromBytes(bytes)));
            }

            @Override
            public void broadcast(M message) {
                for (NodeId member : view.members()) {
                    if (!member.equals(self)) {
                        send(member, message);
                    }
                }
            }

            @Override
            public void granted(long fencingToken) {
                Node.this.granted(lock, fencingToken);
            }

            @Override
            public void setTimer(String name, long delay) {
                long generation = ++lock.timerGeneration;
                lock.timers.put(name, generation);
                at(now + delay, () -> {
                    Long current = lock.timers.get(name);
                    if (locks.get(lock.name) == lock && current != null && current == generation) {
                        lock.timers.remove(name);
                        handle(lock, () -> lock.protocol.onTimer(name));
                    }
                });
            }

            @Override
            public void cancelTimer(String name) {
                lock.timers.remove(name);
            }
        }
    }
}
