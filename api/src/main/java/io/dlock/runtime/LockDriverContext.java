package io.dlock.runtime;

import io.dlock.OwnershipLoss;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.Transport;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What every {@link LockDriver} of a node shares, made once by the node: a node may hold the state of a million
 * locks, so each driver keeps one reference to this rather than a copy of each.
 *
 * @param definition    the node's mutual-exclusion algorithm
 * @param wire          how its locks' messages look on the wire
 * @param options       its options ({@code dlock.mutex.*})
 * @param transport     the node's transport
 * @param pool          the node's loop pool, which runs the drivers' event loops
 * @param timers        the node's timer thread (the algorithms' timers)
 * @param localHandoff  H, local hand-offs allowed per distributed grant ({@code dlock.lock.local-handoff})
 * @param lease         the node's epoch lease: a grant reaches a local thread only while it runs
 * @param fencingFloor  the node's fencing floor, read whenever a driver creates its algorithm
 * @param ownershipLost tells the ownership listeners of the lock a loss names (kept by the node, by lock name, so
 *                      they outlive the lock's driver)
 * @param facades       makes what {@code LockService.lock(name)} returns, by name
 * @param holdExecutors the node's threads that local holds borrow (completions, lease timers)
 * @param grantSpin     how a thread that asked the cluster waits for its grant before it parks
 *                      ({@code dlock.lock.grant-spin-us})
 * @param <M>           the algorithm's message type
 */
record LockDriverContext<M extends ProtocolMessage>(MutexProtocolDefinition<M> definition, LockWireFormat<M> wire,
                                                     ProtocolOptions options,
                                                     Transport transport, Executor pool,
                                                     ScheduledExecutorService timers, int localHandoff,
                                                     LeaseCheck lease, LongSupplier fencingFloor,
                                                     Consumer<OwnershipLoss> ownershipLost,
                                                     Function<String, RuntimeLock> facades,
                                                     HoldExecutors holdExecutors, GrantSpin grantSpin) {

    /** The context of {@code definition}'s locks, with the wire format its name and codec make. */
    LockDriverContext(MutexProtocolDefinition<M> definition, ProtocolOptions options, Transport transport, Executor pool,
                      ScheduledExecutorService timers, int localHandoff, LeaseCheck lease, LongSupplier fencingFloor,
                      Consumer<OwnershipLoss> ownershipLost, Function<String, RuntimeLock> facades,
                      HoldExecutors holdExecutors, GrantSpin grantSpin) {
        this(definition, new LockWireFormat<>(definition.name(), definition.codec()), options, transport, pool, timers,
                localHandoff, lease, fencingFloor, ownershipLost, facades, holdExecutors, grantSpin);
    }
}
