/**
 * Deterministic simulation of the mutual-exclusion algorithms: N nodes, one lock, virtual time,
 * one seed per run, seeded faults, and a checker that watches every event. An election mode,
 * {@link io.dlock.inmemory.sim.ElectionSimulation}, runs one leader election on the same event queue,
 * delay models and seeded sources (ring order, initiators, crashed previous leader, an initiator
 * crashed mid-election) and checks that
 * every live node learns the same leader, the highest live id; its
 * {@link io.dlock.inmemory.sim.ElectionResult} has the message counts per type, the election time
 * and docs/algorithms.md's exact count for the setting.
 *
 * <p>{@link io.dlock.inmemory.sim.ConditionSimulation} runs a lock's conditions beside any of the
 * algorithms: a bounded buffer whose producers and consumers await and signal, checked for buffer
 * accesses without the lock, lost wake-ups, one wake-up per signal and the condition messages' formulas
 * ({@link io.dlock.inmemory.sim.ConditionResult}). Its clients drive the nodes through {@code LockClients}
 * instead of the workload's entry counts; ordinary runs have none, and their traces are unchanged.
 *
 * <h2>Running</h2>
 * <pre>{@code
 * SimulationResult r = Simulation.of(AlgorithmDefinitions.mutex(MutexAlgorithm.RICART_AGRAWALA))
 *         .nodes(8)
 *         .delay(DelayModel.uniform(1, 10))
 *         .workload(Workload.perNode(3).think(0, 20).hold(0, 5))
 *         .faults(FaultPlan.none().duplicate(0.01))
 *         .seed(42)
 *         .run();
 * assertTrue(r.ok(), r::describeFailure);
 * }</pre>
 * {@link io.dlock.inmemory.sim.Simulations#runSeeds} runs a configuration over a range of seeds and
 * stops at the first failure.
 *
 * <h2>Event ordering</h2>
 * One {@link io.dlock.inmemory.sim.EventQueue} holds every pending event (message deliveries,
 * timers, workload requests and releases, crashes, view changes), ordered by (virtual time, sequence
 * number); the sequence number is assigned when the event is scheduled, so events of the same
 * instant run in scheduling order. At time 0, before anything else, every node's protocol gets
 * {@link io.dlock.protocol.MutexProtocol#onStart()} (a token ring's token, Raynal's right start to move
 * whether or not their first holder ever asks); these start events are neither counted nor part of
 * the trace hash. Each event runs one protocol handler to completion; whatever the
 * handler does through its {@link io.dlock.protocol.MutexEffects} becomes new events (a send is a
 * delivery at now + delay, a self-message a delivery at now, a grant a release at now + hold time),
 * never a nested call into a protocol. No thread and no wall clock are involved.
 *
 * <h2>Channels</h2>
 * Each network message draws its own delay from the {@link io.dlock.inmemory.sim.DelayModel}, so
 * channels reorder. If the algorithm {@link io.dlock.protocol.MutexProtocolDefinition#requiresFifo()
 * requires FIFO}, each ordered pair of nodes delivers in send order instead (delivery time =
 * max(drawn time, the channel's previous delivery time), ties broken by sequence); the test switch
 * {@link io.dlock.inmemory.sim.Simulation#fifoGuard(boolean) fifoGuard(false)} turns that off.
 * Self-messages are delivered locally at the same instant and not counted (docs/algorithms.md 0.2).
 *
 * <h2>Randomness</h2>
 * The seed makes one root {@link java.util.SplittableRandom}, split in a fixed order into a source
 * for message delays, one for faults, one per node for its workload, and one per node for the
 * protocol's own draws (handed over as the options' random seed,
 * {@link io.dlock.protocol.ProtocolContext#random}: the decentralized algorithm's back-off). One extra
 * draw in one subsystem (say, a duplicate's delay) therefore changes nothing in the others; a model
 * with a single value (unit delay, zero think time) draws nothing at all.
 *
 * <h2>Checker</h2>
 * After every event the checker knows who holds the lock and verifies ME1 (at most one holder at
 * any virtual instant), strictly increasing fencing tokens, and at most one grant per request; at
 * the end it counts ungranted requests (ME3) and notices a deadlock (the queue drained while a
 * request was outstanding). It also measures the synchronization delay. Each of those properties is
 * an {@link io.dlock.inmemory.sim.Invariant} checked at every grant; a test adds its own with
 * {@link io.dlock.inmemory.sim.Simulation#check}. Every
 * {@link io.dlock.inmemory.sim.SimulationResult} carries the counts, the first violation, message
 * counts per type, bytes (when messages go through the codec) and a trace hash.
 *
 * <h2>Inside</h2>
 * {@code Engine} runs a mutual-exclusion simulation and {@code ElectionEngine} an election, each
 * handling only its own events; both send through one {@code Network} (codec round trip, the fault
 * plan's network filters, delays, FIFO channels) and keep timers in {@code Timers}; the mutual-exclusion
 * engine's views, crashes, pauses and amnesia are {@code Membership}'s. {@code Simulation} and
 * {@code ElectionSimulation} share their common settings as one {@code RunSettings} value.
 *
 * <h2>Replaying a seed</h2>
 * A failing run says {@code failed on seed N; replay: Simulation.of(...)....seed(NL).run()}
 * ({@link io.dlock.inmemory.sim.SimulationResult#describeFailure()}); paste the replay line, or call
 * {@code template.seed(N).run()}, to get the very same run, event for event (equal trace hash). A seed
 * that once found a bug deserves a pinned regression test.
 */
package io.dlock.inmemory.sim;
