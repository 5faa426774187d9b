package io.dlock.runtime;

import io.dlock.DistributedLock;
import io.dlock.LockService;
import io.dlock.metrics.LockMXBean;
import io.dlock.metrics.NodeMXBean;
import io.dlock.NodeId;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's MBeans in the platform MBean server ({@code dlock.metrics.jmx=true}): the node's and one per
 * lock, under the names {@link io.dlock.metrics} documents; {@link #unregisterAll()} removes them when the
 * node closes. A name that is taken already (another node of the same cluster and id in this JVM) is
 * logged and skipped: metrics never fail the lock.
 */
final class JmxRegistrations {

    private static final Logger LOG = LoggerFactory.getLogger(JmxRegistrations.class);
    /** Characters that make an ObjectName value need quoting. */
    private static final Pattern NEEDS_QUOTING = Pattern.compile("[,=:\"*?\\\\\\n]");

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new CopyOnWriteArrayList<>();
    private final String cluster;
    /** The node's id, known once its transport has connected (before any MBean is registered). */
    private final Supplier<NodeId> node;

    JmxRegistrations(String cluster, Supplier<NodeId> node) {
        this.cluster = cluster;
        this.node = node;
    }

    /** {@code cluster=...,node=...}, quoted where needed. */
    private String nodeKeys() {
        return "cluster=" + value(cluster) + ",node=" + value(node.get().toString());
    }

    void registerNode(LockService node) {
        register("io.dlock:type=Node," + nodeKeys(), new NodeMBean(node), NodeMXBean.class);
    }

    void registerLock(String name, DistributedLock lock) {
        register(lockName(name), new LockMBean(lock), LockMXBean.class);
    }

    /** The lock's state was reclaimed: its MBean goes with it (the next use registers it again). */
    void unregisterLock(String name) {
        String objectName = lockName(name);
        for (ObjectName registeredName : registered) {
            if (registeredName.toString().equals(objectName) || registeredName.getCanonicalName().equals(objectName)) {
                unregister(registeredName);
                registered.remove(registeredName);
                return;
            }
        }
    }

    private String lockName(String name) {
        return "io.dlock:type=Lock," + nodeKeys() + ",name=" + value(name);
    }

    private void unregister(ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (JMException e) {
            LOG.warn("could not unregister MBean {}: {}", name, e.toString());
        }
    }

    void unregisterAll() {
        for (ObjectName name : registered) {
            unregister(name);
        }
        registered.clear();
    }

    private <T> void register(String name, T bean, Class<T> type) {
        try {
            ObjectName objectName = new ObjectName(name);
            server.registerMBean(new StandardMBean(bean, type, true), objectName);
            registered.add(objectName);
        } catch (JMException e) {
            LOG.warn("could not register MBean {} (dlock.metrics.jmx=true): {}", name, e.toString());
        }
    }

    private static String value(String v) {
        return NEEDS_QUOTING.matcher(v).find() ? ObjectName.quote(v) : v;
    }
}
