package io.dlock.baselines;

import java.util.List;
import java.util.Optional;

/** Every {@link Peer} the baselines jar runs, in the order {@code dlock bench --baselines} runs them. */
final class Peers {

    /** The peers, in run order. */
    static final List<Peer> ALL = List.of(new CentralLock2Peer(), new HazelcastPeer(), new RedissonPeer(false),
            new RedissonPeer(true), new CuratorPeer(true), new CuratorPeer(false), new EtcdPeer());

    private Peers() {
    }

    /** The peer of that {@link Peer#name() name}, if there is one. */
    static Optional<Peer> named(String name) {
        return ALL.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The peers' names, in run order. */
    static List<String> names() {
        return ALL.stream().map(Peer::name).toList();
    }
}
