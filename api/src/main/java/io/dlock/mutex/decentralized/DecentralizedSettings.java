package io.dlock.mutex.decentralized;

import io.dlock.NodeId;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolOptions;
import java.util.SplittableRandom;

/**
 * The decentralized vote's options as its instances use them, parsed once and shared by every lock created with
 * the same {@link ProtocolOptions} ({@link DecentralizedDefinition} keeps the last one made): a live lock holds a
 * reference to them instead of its own copy of each value.
 *
 * @param options      the options they were parsed from (the key of the sharing, and the source of the driver's
 *                     random seed)
 * @param quorumOption votes needed, or 0 for a majority; clamped to {@code [N/2 + 1, N]} per view
 * @param backoffBase  base back-off B in timer units (ms in the runtime)
 * @param backoffCap   the largest exponent of the back-off window {@code B·2^min(t, cap)}
 * @param replyTimeout how long an attempt waits for replies before counting the missing ones as DENY (rule 9), in
 *                     timer units; 0 = wait for every reply
 * @param seed         the seed of the back-off PRNG when the driver gives none (option {@code seed})
 */
record DecentralizedSettings(ProtocolOptions options, int quorumOption, long backoffBase, int backoffCap,
                             long replyTimeout, long seed) {

    /**
     * The back-off source of node {@code self}: the one {@link ProtocolContext#random} gives a protocol of
     * {@code self} created with {@link #options} (the seed depends on nothing else), so a source made at the
     * first draw draws what one made with the protocol would have.
     */
    SplittableRandom randomOf(NodeId self) {
        return ProtocolContext.random(self, options, seed);
    }
}
