/**
 * Exporting dlock's metrics ({@link io.dlock.LockMetrics} per lock, {@link io.dlock.NodeMetrics} per
 * node) to monitoring systems.
 *
 * <h2>Micrometer</h2>
 * {@link io.dlock.metrics.DlockMeterBinder} binds them to a Micrometer {@code MeterRegistry}. Micrometer
 * is an optional dependency of dlock-api ({@code requires static micrometer.core}): add
 * {@code io.micrometer:micrometer-core} to use the binder; without it nothing of Micrometer is loaded.
 *
 * <h2>JMX</h2>
 * With {@code dlock.metrics.jmx=true} a node registers, in the platform MBean server, one
 * {@link io.dlock.metrics.NodeMXBean} named {@code io.dlock:type=Node,cluster=<cluster>,node=<node id>}
 * and one {@link io.dlock.metrics.LockMXBean} per lock it knows (created by the application or by a
 * message of another node) named {@code io.dlock:type=Lock,cluster=<cluster>,node=<node id>,name=<lock>};
 * a value with one of {@code , = : " * ? \} or a line break is quoted ({@link javax.management.ObjectName#quote}).
 * {@link io.dlock.LockService#close()} unregisters them. Off by default: a library should not add
 * MBeans to an application's server unless asked.
 */
package io.dlock.metrics;
