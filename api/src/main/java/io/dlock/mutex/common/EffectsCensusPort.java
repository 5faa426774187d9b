package io.dlock.mutex.common;

import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.function.Function;

/**
 * A {@link TokenCensus.Port} whose sends go through the algorithm's {@link MutexEffects}, each
 * {@link CensusMessage} wrapped in the algorithm's {@link CensusCarrier} record; the algorithm
 * supplies the rest (its report, its rebuild, the redelivery of deferred messages).
 *
 * @param <M> the algorithm's message type
 */
public abstract class EffectsCensusPort<M extends ProtocolMessage> implements TokenCensus.Port<M> {

    private final MutexEffects<M> effects;
    private final Function<CensusMessage, ? extends M> wrap;

    /**
     * @param effects where the census messages go
     * @param wrap    the algorithm's {@link CensusCarrier} record constructor ({@code Census::new})
     */
    protected EffectsCensusPort(MutexEffects<M> effects, Function<CensusMessage, ? extends M> wrap) {
        this.effects = effects;
        this.wrap = wrap;
    }

    @Override
    public void sendHello(NodeId steward, long epoch) {
        effects.send(steward, wrap.apply(new CensusMessage.Hello(epoch)));
    }

    @Override
    public void broadcastQuery(long epoch) {
        effects.broadcast(wrap.apply(new CensusMessage.Query(epoch)));
    }

    @Override
    public void sendReport(NodeId steward, CensusReport r) {
        effects.send(steward, wrap.apply(new CensusMessage.Report(r)));
    }

    @Override
    public void sendDone(NodeId member, CensusOutcome outcome) {
        effects.send(member, wrap.apply(new CensusMessage.Done(outcome)));
    }

    @Override
    public void broadcastDone(CensusOutcome outcome) {
        effects.broadcast(wrap.apply(new CensusMessage.Done(outcome)));
    }
}
