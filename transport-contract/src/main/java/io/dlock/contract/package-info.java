/**
 * The tests every transport runs, written once (the transport-compatibility-kit pattern of JCTools' and JSR-166's
 * shared tests): abstract JUnit 5 classes over a {@link io.dlock.contract.LockCluster} that the transport's
 * concrete test class starts.
 * <ul>
 *   <li>{@link io.dlock.contract.LockContract}: the {@link java.util.concurrent.locks.Lock} contract of
 *       {@link io.dlock.DistributedLock} (one property per test) and mutual exclusion of a plain counter across
 *       nodes and threads, with increasing fencing tokens;</li>
 *   <li>{@link io.dlock.contract.PartitionContract}: the majority rule, a 5-node cluster split 3|2 and healed;</li>
 *   <li>{@link io.dlock.contract.ChildJvms}: the child JVMs of a multi-process test, read line by line;</li>
 *   <li>{@link io.dlock.contract.RepresentativeAlgorithms}: the algorithms a slow transport runs by default.</li>
 * </ul>
 * A transport's test class extends a contract, says how to start (and, for a partition, split and heal) its
 * cluster and which algorithms it runs, and may add checks of its own through the contract's hooks.
 */
package io.dlock.contract;
