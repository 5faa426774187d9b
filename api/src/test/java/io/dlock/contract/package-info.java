/**
 * The tests every transport runs, written once (the transport-compatibility-kit pattern of JCTools' and JSR-166's
 * shared tests): abstract JUnit 5 classes over a {@link io.dlock.contract.LockCluster} that the transport's
 * concrete test class starts.
 * <ul>
 *   <li>{@link io.dlock.contract.LockContract}: the {@link java.util.concurrent.locks.Lock} contract of
 *       {@link io.dlock.DistributedLock} (one property per test) and mutual exclusion of a plain counter across
 *       nodes and threads, with increasing fencing tokens;</li>
 *   <li>{@link io.dlock.contract.PartitionContract}: the majority rule, a 5-node cluster split 3|2 and healed;</li>
 *   <li>{@link io.dlock.contract.ChildJvms}: the child JVMs of a multi-process test, read line by line, and
 *       {@link io.dlock.contract.LoopbackPorts}, free ports on 127.0.0.1 for their JGroups nodes;</li>
 *   <li>{@link io.dlock.contract.RepresentativeAlgorithms}: the algorithms a slow transport runs by default.</li>
 * </ul>
 * A transport's test class extends a contract, says how to start (and, for a partition, split and heal) its
 * cluster and which algorithms it runs, and may add checks of its own through the contract's hooks.
 *
 * <p>This package is in dlock-api's test sources and is published, alone, as dlock-api's test-jar; a transport's
 * module uses it with {@code <type>test-jar</type><scope>test</scope>} and declares the suite's own test
 * dependencies (JUnit Jupiter, Awaitility), which a test-jar does not bring. It exists only in the test tree, so it
 * is no package of module {@code io.dlock.api}; tests compile and run on the class path (see the parent pom).
 */
package io.dlock.contract;
