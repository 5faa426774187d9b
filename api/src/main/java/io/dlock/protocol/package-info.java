/**
 * What every algorithm implements and what it may use. A mutual-exclusion algorithm is a
 * {@link io.dlock.protocol.MutexProtocol}: a pure state machine that reacts to
 * {@code onRequest/onRelease/onMessage/onView/onTimer} and answers only through
 * {@link io.dlock.protocol.MutexEffects}. Its messages are records in a sealed sub-interface of
 * {@link io.dlock.protocol.ProtocolMessage}, encoded by a {@link io.dlock.protocol.MessageCodec}; a
 * {@link io.dlock.protocol.MutexProtocolDefinition} names the algorithm and declares its
 * characteristics and theoretical costs.
 *
 * <p>A leader-election algorithm is an {@link io.dlock.protocol.ElectionProtocol} (events
 * {@code onStart/onMessage/onTimer}, one instance per run over a fixed member set and ring) answering
 * through {@link io.dlock.protocol.ElectionEffects} ({@code send}, timers, {@code leaderElected});
 * it is created from an {@link io.dlock.protocol.ElectionContext} that carries the ring order chosen
 * by the driver, and described by an {@link io.dlock.protocol.ElectionProtocolDefinition}, which also
 * states the exact message count of a given {@link io.dlock.protocol.ElectionScenario}.
 *
 * <p>Building blocks shared by several algorithms live here once: {@link io.dlock.protocol.LogicalClock}
 * and {@link io.dlock.protocol.RequestStamp}.
 *
 * <p>Neither the runtime nor the simulator knows any algorithm by name; both drive this interface, and
 * find the definition of the algorithm a user named ({@link io.dlock.MutexAlgorithm},
 * {@link io.dlock.ElectionAlgorithm}) with {@link io.dlock.protocol.AlgorithmDefinitions}.
 */
package io.dlock.protocol;
