package io.dlock.inmemory.sim;

import io.dlock.condition.ConditionMessage;
import io.dlock.condition.ConditionMessage.Declined;
import io.dlock.condition.ConditionMessage.Signal;
import io.dlock.condition.ConditionMessage.Wake;
import io.dlock.condition.ConditionProtocol;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The condition simulation's clients: a bounded buffer of {@code capacity} items, one producer or
 * consumer per node, two conditions of the one lock ({@link #NOT_FULL}, {@link #NOT_EMPTY}), each a
 * {@link ConditionProtocol} per node. The buffer is the simulator's own model, read and written only by a
 * client the checker sees hold the lock.
 *
 * <p>A client that holds the lock puts (or takes) an item if it can, signals the other condition and
 * releases after a hold time; otherwise it awaits: AWAIT, release on REGISTERED, request the lock again
 * on WAKE (or when a timed await gives up) and check again when granted. Producers put
 * {@code items} each; consumers share the producers' total.
 *
 * <p>Checks, recorded as violations: a buffer access without the lock; a signal handled at the keeper
 * that does not wake exactly one queued waiter (signalAll: all of them); a client waiting at the end of
 * the run while its predicate holds (a lost wake-up); and, when the run is free of faults, every client
 * done and the condition messages per type equal to {@link ConditionProtocol}'s formulas.
 */
final class BoundedBuffer implements LockClients {

    static final int NOT_FULL = 0;
    static final int NOT_EMPTY = 1;
    private static final String[] CONDITION_NAMES = {"not full", "not empty"};
    private static final String RECHECK = TIMER_PREFIX + "recheck";
    private static final String TIMEOUT = TIMER_PREFIX + "timeout:";

    private enum State { REQUESTING, HOLDING, REGISTERING, WAITING, DONE, CRASHED }

    /** One node's producer or consumer. */
    private static final class Client {
        final int node;
        final boolean producer;
        long todo;
        State state = State.REQUESTING;
        long waiter;
        boolean timed;

        Client(int node, boolean producer) {
            this.node = node;
            this.producer = producer;
        }

        int waitsOn() {
            return producer ? NOT_FULL : NOT_EMPTY;
        }
    }

    private final ConditionSimulation config;
    private final ConditionSimulation.EffectsDecorator decorator;
    private final int n;
    private final SplittableRandom random;
    private final Client[] clients;
    private final ConditionProtocol[][] conditions;
    private final List<String> violations = new ArrayList<>();
    /** Condition messages sent, by type (simple class name). */
    private final Map<String, Long> sent = new HashMap<>();
    /** What the class Javadoc formulas predict, by type. */
    private final Map<String, Long> expected = new HashMap<>();
    private Host host;
    private int count;
    private long produced;
    private long consumed;
    private long awaits;
    private long signals;
    private long wakeUps;
    private long giveUps;
    /** Wake-ups (WAKE sent or local waiter woken) by the keeper handler running now. */
    private long handlerWakes;

    BoundedBuffer(ConditionSimulation config, ConditionSimulation.EffectsDecorator decorator) {
        this.config = config;
        this.decorator = decorator;
        this.n = config.base().nodes();
        this.random = new SplittableRandom(config.base().seed() * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        this.clients = new Client[n];
        int producers = n == 1 ? 1 : 1 + random.nextInt(n - 1);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(random.nextLong()));
        long total = (long) producers * config.items();
        int consumers = n - producers;
        int c = 0;
        for (int k = 0; k < n; k++) {
            int node = order.get(k);
            boolean producer = k < producers;
            clients[node] = new Client(node, producer);
            if (producer) {
                clients[node].todo = config.items();
            } else {
                clients[node].todo = total / consumers + (c++ < total % consumers ? 1 : 0);
            }
        }
        this.conditions = new ConditionProtocol[2][n];
    }

    @Override
    public void start(Host engineHost) {
        this.host = engineHost;
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < n; i++) {
                ConditionProtocol.Effects effects = new NodeEffects(i, k);
                effects = decorator.decorate(NodeId.of(i), k, effects);
                conditions[k][i] = new ConditionProtocol(NodeId.of(i), host.view(i), effects);
            }
        }
        for (Client client : clients) {
            if (client.todo == 0) {
                client.state = State.DONE; // a consumer with no share: it still requests once, and leaves
            }
        }
    }

    // ---------------------------------------------------------------- engine events

    @Override
    public void granted(int node) {
        Client client = clients[node];
        if (client.state == State.DONE) {
            host.scheduleRelease(node);
            return;
        }
        if (client.state != State.REQUESTING) {
            violation("n" + node + " was granted the lock while " + client.state);
            return;
        }
        act(client);
    }

    @Override
    public void released(int node) {
        Client client = clients[node];
        if (client.state == State.DONE) {
            host.finished(node);
        } else if (client.state == State.HOLDING) {
            client.state = State.REQUESTING;
            host.scheduleRequest(node, true);
        }
    }

    @Override
    public void delivered(int from, int to, ConditionEnvelope envelope) {
        ConditionProtocol condition = conditions[envelope.condition()][to];
        ConditionMessage message = envelope.message();
        if (message instanceof Signal signal) {
            keeperSignals(to, condition, signal.all(), () -> condition.onMessage(NodeId.of(from), message));
        } else if (message instanceof Declined) {
            keeperSignals(to, condition, false, () -> condition.onMessage(NodeId.of(from), message));
        } else {
            if (message instanceof Wake wake && !waitsFor(clients[to], envelope.condition(), wake.waiter())) {
                expect("Wake", 1); // crossed a give-up: declined
                expect("Declined", 1);
            }
            condition.onMessage(NodeId.of(from), message);
        }
    }

    private static boolean waitsFor(Client client, int condition, long waiter) {
        return client.waiter == waiter && client.waitsOn() == condition
                && (client.state == State.WAITING || client.state == State.REGISTERING);
    }

    @Override
    public void timer(int node, String name) {
        Client client = clients[node];
        if (name.equals(RECHECK)) {
            if (client.state != State.REGISTERING) {
                return;
            }
            if (host.holding(node)) {
                act(client); // woken before it released: it still holds the lock
            } else { // its hold was fenced out by a view change meanwhile
                host.releaseNow(node);
                client.state = State.REQUESTING;
                host.scheduleRequest(node, false);
            }
        } else if (name.startsWith(TIMEOUT) && client.state == State.WAITING
                && client.waiter == Long.parseLong(name.substring(TIMEOUT.length()))) {
            giveUps++;
            if (!conditions[client.waitsOn()][node].keeper().equals(NodeId.of(node))) {
                expect("Cancel", 1);
            }
            client.state = State.REQUESTING;
            conditions[client.waitsOn()][node].onGiveUp(client.waiter);
            host.scheduleRequest(node, false);
        }
    }

    @Override
    public void viewInstalled(int node, View view) {
        for (int k = 0; k < 2; k++) {
            conditions[k][node].onView(view);
        }
    }

    @Override
    public void crashed(int node) {
        clients[node].state = State.CRASHED;
    }

    // ---------------------------------------------------------------- the client

    /** {@code client} holds the lock: put or take if it can, else await. */
    private void act(Client client) {
        int node = client.node;
        if (!host.holding(node)) {
            violation("n" + node + " uses the buffer without holding the lock");
        }
        if (predicate(client)) {
            if (client.producer) {
                count++;
                produced++;
            } else {
                count--;
                consumed++;
            }
            client.todo--;
            client.state = client.todo == 0 ? State.DONE : State.HOLDING;
            boolean all = config.signalAll();
            int other = 1 - client.waitsOn();
            ConditionProtocol condition = conditions[other][node];
            signals++;
            if (!condition.keeper().equals(NodeId.of(node))) {
                expect("Signal", 1);
            }
            keeperSignals(node, condition, all, () -> condition.onSignal(all));
            host.scheduleRelease(node);
            return;
        }
        client.state = State.REGISTERING;
        client.waiter++;
        client.timed = config.timedAwaits() && random.nextBoolean();
        awaits++;
        ConditionProtocol condition = conditions[client.waitsOn()][node];
        if (!condition.keeper().equals(NodeId.of(node))) {
            expect("Await", 1);
            expect("Registered", 1);
        }
        condition.onAwait(client.waiter);
    }

    private boolean predicate(Client client) {
        return client.producer ? count < config.capacity() : count > 0;
    }

    /** Runs a signal at {@code node}'s {@code condition}; if the node is its keeper, checks how many waiters it woke. */
    private void keeperSignals(int node, ConditionProtocol condition, boolean all, Runnable signal) {
        int queued = condition.queued();
        boolean keeper = condition.keeper().equals(NodeId.of(node));
        handlerWakes = 0;
        signal.run();
        long want = all ? queued : Math.min(1, queued);
        if (keeper && handlerWakes != want) {
            violation("a " + (all ? "signalAll" : "signal") + " at keeper " + condition.keeper() + " with " + queued
                    + " waiter(s) queued woke " + handlerWakes + ", not " + want);
        }
    }

    private void registered(int node, long waiter) {
        Client client = clients[node];
        if (client.state != State.REGISTERING || client.waiter != waiter) {
            violation("n" + node + " waiter " + waiter + " registered while " + client.state);
            return;
        }
        client.state = State.WAITING;
        host.releaseNow(node);
        if (client.timed) {
            host.setTimer(node, TIMEOUT + waiter, config.awaitTimeout());
        }
    }

    private boolean wake(int node, int condition, long waiter) {
        Client client = clients[node];
        if (client.waiter != waiter || client.waitsOn() != condition) {
            return false; // gave up, and waits again (or no more)
        }
        if (client.state == State.WAITING) {
            wakeUps++;
            host.cancelTimer(node, TIMEOUT + waiter);
            client.state = State.REQUESTING;
            host.scheduleRequest(node, false);
            return true;
        }
        if (client.state == State.REGISTERING) {
            wakeUps++;
            host.setTimer(node, RECHECK, 0); // it never released: check again, still holding, in an event of its own
            return true;
        }
        return false;
    }

    private void violation(String what) {
        violations.add("t=" + host.now() + ": " + what);
    }

    private void expect(String type, long k) {
        expected.merge(type, k, Long::sum);
    }

    // ---------------------------------------------------------------- the end

    /** The violations found during the run and at its end; {@code faultFree}: the strict end checks too. */
    List<String> finish(boolean faultFree) {
        List<String> all = new ArrayList<>(violations);
        for (Client client : clients) {
            if (client.state == State.WAITING && predicate(client)) {
                all.add("lost wake-up: n" + client.node + " (" + (client.producer ? "producer" : "consumer")
                        + ") still waits for '" + CONDITION_NAMES[client.waitsOn()] + "' at the end while the buffer holds "
                        + count + " of " + config.capacity());
            }
        }
        if (faultFree) {
            for (Client client : clients) {
                if (client.state != State.DONE) {
                    all.add("n" + client.node + " (" + (client.producer ? "producer" : "consumer") + ") not done: "
                            + client.state + ", " + client.todo + " item(s) to go, buffer " + count + " of " + config.capacity());
                }
            }
            for (String type : List.of("Await", "Registered", "Signal", "Wake", "Cancel", "Declined")) {
                long want = expected.getOrDefault(type, 0L);
                long got = sent.getOrDefault(type, 0L);
                if (got != want) {
                    all.add(type + " messages: " + got + " sent, the formula gives " + want);
                }
            }
        }
        return all;
    }

    long produced() {
        return produced;
    }

    long consumed() {
        return consumed;
    }

    long awaits() {
        return awaits;
    }

    long signals() {
        return signals;
    }

    long wakeUps() {
        return wakeUps;
    }

    long giveUps() {
        return giveUps;
    }

    /** Condition messages sent, by type. */
    Map<String, Long> sent() {
        return Map.copyOf(sent);
    }

    /** One node's condition effects: counts what the protocol sends and answers for the node's client. */
    private final class NodeEffects implements ConditionProtocol.Effects {
        private final int node;
        private final int condition;

        NodeEffects(int node, int condition) {
            this.node = node;
            this.condition = condition;
        }

        @Override
        public void send(NodeId to, ConditionMessage message) {
            String type = message.getClass().getSimpleName();
            sent.merge(type, 1L, Long::sum);
            if (message instanceof Wake) {
                handlerWakes++;
            }
            host.send(node, to, new ConditionEnvelope(condition, message));
        }

        @Override
        public void registered(long waiter) {
            BoundedBuffer.this.registered(node, waiter);
        }

        @Override
        public boolean wake(long waiter) {
            boolean woken = BoundedBuffer.this.wake(node, condition, waiter);
            if (conditions[condition][node].keeper().equals(NodeId.of(node))) {
                if (woken) {
                    handlerWakes++;
                }
            } else if (woken) { // by a WAKE (without faults, no view change wakes anybody)
                expect("Wake", 1);
            }
            return woken;
        }
    }
}
