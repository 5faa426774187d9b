/**
 * dlock's API, its service-provider interface for transports, the contract every algorithm implements,
 * and the algorithms themselves. What is exported, and why:
 * <ul>
 *   <li>{@code io.dlock}: the API applications use (LockService, DistributedLock, LeaderElection,
 *       DlockConfig, ClusterView, NodeId, LockMetrics, NodeMetrics, the algorithm enums); it returns no type of
 *       the two packages below.</li>
 *   <li>{@code io.dlock.spi}: what a transport implements and uses (Transport, TransportFactory, View, the
 *       wire format and codec helpers; node ids are the API's NodeId).</li>
 *   <li>{@code io.dlock.protocol}: the algorithm authors' contract (MutexProtocol, ElectionProtocol, their
 *       definitions, effects and options, and AlgorithmDefinitions, the definition of each named algorithm),
 *       which the runtime and the simulator drive and tests implement.</li>
 *   <li>{@code io.dlock.metrics}: the metrics' JMX interfaces and the Micrometer binder; Micrometer is an
 *       optional dependency ({@code requires static}), needed only by whoever uses the binder.</li>
 *   <li>{@code io.dlock.spring.integration}: Spring Integration's {@code LockRegistry} on dlock's locks and a leader
 *       initiator on dlock's elections; Spring Integration and Spring's context are optional dependencies.</li>
 *   <li>{@code io.dlock.shedlock}: ShedLock's {@code LockProvider} on dlock's locks; ShedLock is an optional
 *       dependency.</li>
 *   <li>{@code io.dlock.spring.boot}: the Spring Boot auto-configuration and health indicator; Spring Boot is an
 *       optional dependency ({@code requires static}), needed only by Boot applications, which find the
 *       auto-configuration through {@code META-INF/spring/...AutoConfiguration.imports}.</li>
 * </ul>
 * Exported only to the simulator ({@code io.dlock.inmemory}), a second driver of the same algorithms:
 * {@code io.dlock.membership} (the majority rule and the gate that applies it), {@code io.dlock.condition}
 * (the condition protocol, simulated beside every algorithm), {@code io.dlock.reclaim} (the reclamation
 * round, simulated with many lock names), and
 * {@code io.dlock.election.bully} and {@code io.dlock.election.ring}, whose definitions are its election
 * defaults.
 *
 * <p>Not exported: {@code io.dlock.runtime}, the driver behind {@code LockService.start} (what its diagnostics
 * show is public through {@link io.dlock.LockService#nodeMetrics()}); {@code io.dlock.mutex.common} and
 * {@code io.dlock.election.common} (building blocks of the algorithms); and the other algorithm packages: applications choose an algorithm by name
 * ({@link io.dlock.MutexAlgorithm}, {@link io.dlock.ElectionAlgorithm}); the runtime, the simulator and the
 * command line reach its definition through {@code io.dlock.protocol}'s interfaces, found with
 * {@link io.dlock.protocol.AlgorithmDefinitions}. Their message records also carry types of
 * {@code io.dlock.mutex.common} (the token census), so exporting them would leak that package.
 *
 * <p>Transports are found with {@link java.util.ServiceLoader}: the module {@code uses}
 * {@link io.dlock.spi.TransportFactory}, and {@code dlock-inmemory} and {@code dlock-jgroups} provide one.
 */
module io.dlock.api {
    requires org.slf4j;
    requires java.management;
    // optional: only io.dlock.metrics.DlockMeterBinder uses Micrometer (see that package)
    requires static micrometer.core;
    // optional: only io.dlock.spring.integration uses Spring (automatic module names of spring-integration-core
    // and spring-context), only io.dlock.shedlock uses ShedLock (a named module)
    requires static spring.integration.core;
    requires static spring.context;
    requires static net.javacrumbs.shedlock.core;
    // optional: only io.dlock.spring.boot uses Spring Boot (and Spring's core and beans)
    requires static spring.core;
    requires static spring.beans;
    requires static spring.boot;
    requires static spring.boot.autoconfigure;
    requires static spring.boot.health;

    exports io.dlock;
    exports io.dlock.spi;
    exports io.dlock.protocol;
    exports io.dlock.metrics;
    exports io.dlock.spring.integration;
    exports io.dlock.shedlock;
    exports io.dlock.spring.boot;

    exports io.dlock.election.bully to io.dlock.inmemory;
    exports io.dlock.election.ring to io.dlock.inmemory;
    exports io.dlock.membership to io.dlock.inmemory;
    exports io.dlock.condition to io.dlock.inmemory;
    exports io.dlock.reclaim to io.dlock.inmemory;

    uses io.dlock.spi.TransportFactory;
}
