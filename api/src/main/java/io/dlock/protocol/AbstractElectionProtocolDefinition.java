package io.dlock.protocol;

import java.util.Objects;
import java.util.Set;

/**
 * Holds what every {@link ElectionProtocolDefinition} only declares: its topology and whether it is
 * quiet after the leader is known, and (in {@link AbstractProtocolDefinition}) its name, FIFO need, option
 * keys, codec and message-count formula, each given once to the constructor and returned by a final
 * accessor; {@link #toString()} is the name. A
 * subclass keeps only what is specific to its algorithm: {@link #create} and
 * {@link #expectedMessages}.
 *
 * @param <M> the algorithm's message type
 */
public abstract class AbstractElectionProtocolDefinition<M extends ProtocolMessage>
        extends AbstractProtocolDefinition<M> implements ElectionProtocolDefinition<M> {

    private final ElectionTopology topology;
    private final boolean quietAfterLeader;

    /**
     * @param name             the kebab-case configuration name, returned by {@link #name()} and {@link #toString()}
     * @param topology         the links the algorithm uses ({@link #topology()})
     * @param requiresFifo     whether the algorithm is only correct on FIFO channels ({@link #requiresFifo()})
     * @param quietAfterLeader whether no message reaches a node after it learned the leader
     *                         ({@link #quietAfterLeader()})
     * @param optionKeys       the option keys {@link ProtocolOptions} may set, {@code Set.of()} for none
     * @param codec            the codec of the algorithm's messages, stateless
     * @param messagesFormula  the message-count formula as docs/algorithms.md writes it
     * @throws NullPointerException if an argument is null
     */
    protected AbstractElectionProtocolDefinition(String name, ElectionTopology topology, boolean requiresFifo,
            boolean quietAfterLeader, Set<String> optionKeys, MessageCodec<M> codec, String messagesFormula) {
        super(name, requiresFifo, optionKeys, codec, messagesFormula);
        this.topology = Objects.requireNonNull(topology, "topology");
        this.quietAfterLeader = quietAfterLeader;
    }

    @Override
    public final ElectionTopology topology() {
        return topology;
    }

    @Override
    public final boolean quietAfterLeader() {
        return quietAfterLeader;
    }
}
