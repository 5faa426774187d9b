package io.dlock.mutex.common;

import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.NodeId;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * A {@link TokenCensus.Port} whose sends go through the algorithm's {@link MutexEffects}, built from
 * the algorithm's four census records; the algorithm supplies the rest (its report, its rebuild,
 * the redelivery of deferred messages).
 *
 * @param <M> the algorithm's message type
 */
public abstract class EffectsCensusPort<M extends ProtocolMessage> implements TokenCensus.Port<M> {

    private final MutexEffects<M> effects;
    private final LongFunction<? extends M> hello;
    private final LongFunction<? extends M> query;
    private final Function<CensusReport, ? extends M> report;
    private final Function<CensusOutcome, ? extends M> done;

    /**
     * @param effects where the census messages go
     * @param hello   the algorithm's HELLO record for an epoch
     * @param query   its QUERY record for an epoch
     * @param report  its REPORT record
     * @param done    its DONE record
     */
    protected EffectsCensusPort(MutexEffects<M> effects, LongFunction<? extends M> hello,
                                LongFunction<? extends M> query, Function<CensusReport, ? extends M> report,
                                Function<CensusOutcome, ? extends M> done) {
        this.effects = effects;
        this.hello = hello;
        this.query = query;
        this.report = report;
        this.done = done;
    }

    @Override
    public void sendHello(NodeId steward, long epoch) {
        effects.send(steward, hello.apply(epoch));
    }

    @Override
    public void broadcastQuery(long epoch) {
        effects.broadcast(query.apply(epoch));
    }

    @Override
    public void sendReport(NodeId steward, CensusReport r) {
        effects.send(steward, report.apply(r));
    }

    @Override
    public void sendDone(NodeId member, CensusOutcome outcome) {
        effects.send(member, done.apply(outcome));
    }

    @Override
    public void broadcastDone(CensusOutcome outcome) {
        effects.broadcast(done.apply(outcome));
    }
}
