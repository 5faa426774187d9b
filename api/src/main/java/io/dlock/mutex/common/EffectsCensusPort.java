package io.dlock.mutex.common;

import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;

/**
 * A {@link TokenCensus.Port} whose sends go through the algorithm's {@link MutexEffects}, each
 * {@link CensusMessage} wrapped in the algorithm's {@link CensusCarrier} record. A token algorithm
 * implements it itself, so that its census needs no port object of its own (one object fewer per lock
 * and node), and supplies the rest: its effects, its carrier record, its report, its rebuild, the
 * redelivery of deferred messages.
 *
 * @param <M> the algorithm's message type
 */
public interface EffectsCensusPort<M extends ProtocolMessage> extends TokenCensus.Port<M> {

    /** Where the census messages go: the algorithm's effects. */
    MutexEffects<M> censusEffects();

    /** {@code message} in the algorithm's {@link CensusCarrier} record ({@code new Census(message)}). */
    M carryCensus(CensusMessage message);

    @Override
    default void sendHello(NodeId steward, long epoch) {
        censusEffects().send(steward, carryCensus(new CensusMessage.Hello(epoch)));
    }

    @Override
    default void broadcastQuery(long epoch) {
        censusEffects().broadcast(carryCensus(new CensusMessage.Query(epoch)));
    }

    @Override
    default void sendReport(NodeId steward, CensusReport r) {
        censusEffects().send(steward, carryCensus(new CensusMessage.Report(r)));
    }

    @Override
    default void sendDone(NodeId member, CensusOutcome outcome) {
        censusEffects().send(member, carryCensus(new CensusMessage.Done(outcome)));
    }

    @Override
    default void broadcastDone(CensusOutcome outcome) {
        censusEffects().broadcast(carryCensus(new CensusMessage.Done(outcome)));
    }
}
