package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration: every source reaches the same validated {@link DlockConfig}; bad input fails naming key, value and allowed values. */
class DlockConfigTest {

    /** Defaults: centralized mutex, bully election, in-memory transport, cluster "dlock", 1 s try timeout. */
    @Test
    void defaults() {
        DlockConfig c = DlockConfig.builder().build();
        assertEquals(MutexAlgorithm.CENTRALIZED, c.mutex());
        assertEquals(ElectionAlgorithm.BULLY, c.election());
        assertEquals("inmemory", c.transport());
        assertEquals("dlock", c.cluster());
        assertTrue(c.nodeId().isEmpty());
        assertEquals(Duration.ofSeconds(1), c.tryTimeout());
    }

    /** An empty configuration has every DEFAULT_* constant, the values the Javadoc table and docs/user-guide.md's configuration table list. */
    @Test
    void everyDefaultIsItsNamedConstant() {
        DlockConfig c = DlockConfig.builder().build();
        assertEquals(DlockConfig.DEFAULT_MUTEX, c.mutex());
        assertEquals(DlockConfig.DEFAULT_ELECTION, c.election());
        assertEquals(DlockConfig.DEFAULT_TRANSPORT, c.transport());
        assertEquals(DlockConfig.DEFAULT_CLUSTER, c.cluster());
        assertEquals(Duration.ofMillis(DlockConfig.DEFAULT_TRY_TIMEOUT_MS), c.tryTimeout());
        assertEquals(Duration.ofMillis(DlockConfig.DEFAULT_LEASE_MS), c.lease());
        assertEquals(DlockConfig.DEFAULT_LOCAL_HANDOFF, c.localHandoff());
        assertEquals(Duration.ofNanos(1000L * DlockConfig.DEFAULT_GRANT_SPIN_US), c.grantSpin());
        assertEquals(Duration.ofMillis(DlockConfig.DEFAULT_IDLE_EXPIRY_MS), c.idleExpiry());
        assertEquals(DlockConfig.DEFAULT_MAX_LIVE, c.maxLiveLocks());
        assertEquals(DlockConfig.DEFAULT_METRICS_JMX, c.metricsJmx());
        // the values themselves, as documented: changing one is a decision, not a refactoring
        assertEquals("centralized", DlockConfig.DEFAULT_MUTEX.configName());
        assertEquals("bully", DlockConfig.DEFAULT_ELECTION.configName());
        assertEquals(1000, DlockConfig.DEFAULT_LEASE_MS);
        assertEquals(60_000, DlockConfig.DEFAULT_IDLE_EXPIRY_MS);
        assertEquals(100_000, DlockConfig.DEFAULT_MAX_LIVE);
        assertEquals(0, DlockConfig.DEFAULT_GRANT_SPIN_US);
    }

    /** The MIN_* and MAX_* constants are the bounds the validation applies: each is accepted, one beyond is not. */
    @Test
    void boundsAreTheNamedConstants() {
        String[][] keyMinMax = {
                {DlockConfig.TRY_TIMEOUT_MS, "0", Integer.toString(DlockConfig.MAX_TRY_TIMEOUT_MS)},
                {DlockConfig.LEASE_MS, Integer.toString(DlockConfig.MIN_LEASE_MS), Integer.toString(DlockConfig.MAX_LEASE_MS)},
                {DlockConfig.IDLE_EXPIRY_MS, Integer.toString(DlockConfig.MIN_IDLE_EXPIRY_MS),
                        Integer.toString(DlockConfig.MAX_IDLE_EXPIRY_MS)},
                {DlockConfig.MAX_LIVE, Integer.toString(DlockConfig.MIN_MAX_LIVE), Integer.toString(DlockConfig.MAX_MAX_LIVE)},
                {DlockConfig.LOCAL_HANDOFF, "0", Integer.toString(DlockConfig.MAX_LOCAL_HANDOFF)},
                {DlockConfig.GRANT_SPIN_US, "0", Integer.toString(DlockConfig.MAX_GRANT_SPIN_US)},
        };
        for (String[] k : keyMinMax) {
            DlockConfig.builder().set(k[0], k[1]).build();
            DlockConfig.builder().set(k[0], k[2]).build();
            String over = Long.toString(Long.parseLong(k[2]) + 1);
            DlockConfigException e = assertThrows(DlockConfigException.class,
                    () -> DlockConfig.builder().set(k[0], over).build(), k[0] + "=" + over);
            assertTrue(e.getMessage().contains(k[0] + "=" + over) && e.getMessage().contains(k[2]), e.getMessage());
        }
    }

    /** Properties, a file, system properties and the builder give equal settings. */
    @Test
    void allSourcesAgree(@TempDir Path dir) throws Exception {
        Properties p = new Properties();
        p.setProperty("dlock.mutex", "ricart-agrawala");
        p.setProperty("dlock.cluster", "orders");
        p.setProperty("dlock.node.id", "7");
        DlockConfig fromProps = DlockConfig.fromProperties(p);
        Path file = dir.resolve("dlock.properties");
        Files.writeString(file, "dlock.mutex=ricart-agrawala\ndlock.cluster=orders\ndlock.node.id=7\n");
        DlockConfig fromFile = DlockConfig.load(file);
        DlockConfig fromBuilder = DlockConfig.builder().mutex(MutexAlgorithm.RICART_AGRAWALA).cluster("orders").nodeId(7).build();
        for (DlockConfig c : new DlockConfig[] {fromProps, fromFile, fromBuilder}) {
            assertEquals(MutexAlgorithm.RICART_AGRAWALA, c.mutex());
            assertEquals("orders", c.cluster());
            assertEquals(7L, c.nodeId().getAsLong());
        }
        System.setProperty("dlock.mutex", "lamport");
        try {
            assertEquals(MutexAlgorithm.LAMPORT, DlockConfig.fromSystemProperties().mutex());
        } finally {
            System.clearProperty("dlock.mutex");
        }
    }

    /** An unknown key fails and the message names it and lists the allowed keys. */
    @Test
    void unknownKey() {
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set("dlock.mutx", "lamport").build());
        assertTrue(e.getMessage().contains("dlock.mutx"), e.getMessage());
        assertTrue(e.getMessage().contains("dlock.mutex"), e.getMessage());
    }

    /** dlock.lock.local-handoff defaults to 0 and accepts 0..1000 only, naming the key and the range otherwise. */
    @Test
    void localHandoff() {
        assertEquals(0, DlockConfig.builder().build().localHandoff());
        assertEquals(16, DlockConfig.builder().localHandoff(16).build().localHandoff());
        for (String bad : new String[] {"-1", "1001", "x"}) {
            DlockConfigException e = assertThrows(DlockConfigException.class,
                    () -> DlockConfig.builder().set(DlockConfig.LOCAL_HANDOFF, bad).build());
            assertTrue(e.getMessage().contains("dlock.lock.local-handoff=" + bad), e.getMessage());
            assertTrue(e.getMessage().contains("0 to 1000"), e.getMessage());
        }
    }

    /** dlock.lock.grant-spin-us: whole microseconds through the builder, 0 parks at once; a negative one is refused by name. */
    @Test
    void grantSpin() {
        assertEquals(Duration.ofNanos(250_000), DlockConfig.builder().grantSpin(Duration.ofNanos(250_999)).build().grantSpin());
        assertEquals(Duration.ZERO, DlockConfig.builder().grantSpin(Duration.ZERO).build().grantSpin());
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().grantSpin(Duration.ofMillis(-1)).build());
        assertTrue(e.getMessage().contains("dlock.lock.grant-spin-us=-1000"), e.getMessage());
        assertTrue(e.getMessage().contains("0 to 10000"), e.getMessage());
    }

    /** dlock.cluster.size: unset by default; 1 to 10000; a bad value names the key, the value and the range. */
    @Test
    void clusterSize() {
        assertTrue(DlockConfig.builder().build().clusterSize().isEmpty());
        assertEquals(5, DlockConfig.builder().clusterSize(5).build().clusterSize().getAsInt());
        java.util.Properties p = new java.util.Properties();
        p.setProperty("dlock.cluster.size", "3");
        assertEquals(3, DlockConfig.fromProperties(p).clusterSize().getAsInt());
        for (String bad : new String[] {"0", "-2", "10001", "three"}) {
            DlockConfigException e = assertThrows(DlockConfigException.class,
                    () -> DlockConfig.builder().set(DlockConfig.CLUSTER_SIZE, bad).build());
            assertTrue(e.getMessage().contains("dlock.cluster.size=" + bad), e.getMessage());
            assertTrue(e.getMessage().contains("1 to 10000"), e.getMessage());
        }
    }

    /** An unknown algorithm fails naming the key, the value and every allowed name. */
    @Test
    void unknownAlgorithm() {
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set("dlock.mutex", "ricart_agrawala").build());
        assertTrue(e.getMessage().contains("dlock.mutex=ricart_agrawala"), e.getMessage());
        for (MutexAlgorithm a : MutexAlgorithm.values()) {
            assertTrue(e.getMessage().contains(a.configName()), e.getMessage());
        }
        assertThrows(DlockConfigException.class, () -> DlockConfig.builder().set("dlock.election", "bullyy").build());
    }

    /** Out-of-range and non-numeric values fail naming the range. */
    @Test
    void outOfRange() {
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set("dlock.node.id", "-1").build());
        assertTrue(e.getMessage().contains("dlock.node.id=-1") && e.getMessage().contains("0 to"), e.getMessage());
        e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set("dlock.lock.try-timeout-ms", "soon").build());
        assertTrue(e.getMessage().contains("not an integer"), e.getMessage());
        assertThrows(DlockConfigException.class, () -> DlockConfig.builder().set("dlock.cluster", "a b").build());
    }

    /** Algorithm options are checked against the chosen algorithm. */
    @Test
    void algorithmOptions() {
        DlockConfig c = DlockConfig.builder().mutex(MutexAlgorithm.LAMPORT).mutexOption("immediate-ack", "true").build();
        assertEquals(Map.of("immediate-ack", "true"), c.mutexOptions());
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().mutex(MutexAlgorithm.RICART_AGRAWALA).mutexOption("immediate-ack", "true").build());
        assertTrue(e.getMessage().contains("dlock.mutex.immediate-ack"), e.getMessage());
        assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().mutex(MutexAlgorithm.LAMPORT).mutexOption("immediate-ack", "yes").build());

        // centralized's coordinator choice: per-name or leader, from properties too; a bad value names both
        assertEquals(Map.of("coordinator", "leader"), DlockConfig.builder().mutex(MutexAlgorithm.CENTRALIZED)
                .mutexOption("coordinator", "leader").build().mutexOptions());
        java.util.Properties p = new java.util.Properties();
        p.setProperty("dlock.mutex", "centralized");
        p.setProperty("dlock.mutex.coordinator", "per-name");
        assertEquals(Map.of("coordinator", "per-name"), DlockConfig.fromProperties(p).mutexOptions());
        e = assertThrows(DlockConfigException.class, () -> DlockConfig.builder().mutex(MutexAlgorithm.CENTRALIZED)
                .mutexOption("coordinator", "highest").build());
        assertTrue(e.getMessage().contains("dlock.mutex.coordinator=highest is not allowed; allowed: per-name, leader"),
                e.getMessage());
        e = assertThrows(DlockConfigException.class, () -> DlockConfig.builder().mutex(MutexAlgorithm.LAMPORT)
                .mutexOption("coordinator", "leader").build());
        assertTrue(e.getMessage().contains("dlock.mutex.coordinator"), e.getMessage());
    }

    /** Election options reach the election; an unknown or malformed one fails naming the key and value. */
    @Test
    void electionOptions() {
        DlockConfig c = DlockConfig.builder().set("dlock.election", "bully")
                .set("dlock.election.ok-timeout-ms", "50").build();
        assertEquals(Map.of("ok-timeout-ms", "50"), c.electionOptions());
        DlockConfigException unknown = assertThrows(DlockConfigException.class, () -> DlockConfig.builder()
                .set("dlock.election", "lelann").set("dlock.election.ok-timeout-ms", "50").build());
        assertTrue(unknown.getMessage().contains("dlock.election.ok-timeout-ms"), unknown.getMessage());
        DlockConfigException bad = assertThrows(DlockConfigException.class, () -> DlockConfig.builder()
                .set("dlock.election.ok-timeout-ms", "soon").build());
        assertTrue(bad.getMessage().contains("soon"), bad.getMessage());
        assertEquals(ElectionAlgorithm.PETERSON, DlockConfig.builder().set("dlock.election", "peterson").build().election());
    }

    /** A variant name selects its algorithm with the variant's options; a contradicting explicit option fails. */
    @Test
    void variants() {
        DlockConfig basic = DlockConfig.builder().set("dlock.mutex", "maekawa-basic").build();
        assertEquals(MutexAlgorithm.MAEKAWA, basic.mutex());
        assertEquals(Map.of("basic", "true"), basic.mutexOptions());
        DlockConfig original = DlockConfig.builder().set("dlock.mutex", "raynal-original").mutexOption("retry-ms", "5").build();
        assertEquals(MutexAlgorithm.RAYNAL, original.mutex());
        assertEquals(Map.of("original", "true", "retry-ms", "5"), original.mutexOptions());
        DlockConfigException e = assertThrows(DlockConfigException.class, () -> DlockConfig.builder()
                .set("dlock.mutex", "maekawa-basic").mutexOption("basic", "false").build());
        assertTrue(e.getMessage().contains("contradicts dlock.mutex=maekawa-basic"), e.getMessage());
        e = assertThrows(DlockConfigException.class, () -> DlockConfig.builder().set("dlock.mutex", "maekawa-basik").build());
        assertTrue(e.getMessage().contains("maekawa-basic"), e.getMessage());
    }

    /** dlock.metrics.jmx is off by default, takes true or false, and names the key and the allowed values otherwise. */
    @Test
    void metricsJmxIsABooleanOffByDefault() {
        assertFalse(DlockConfig.builder().build().metricsJmx());
        assertTrue(DlockConfig.builder().metricsJmx(true).build().metricsJmx());
        assertTrue(DlockConfig.builder().set(DlockConfig.METRICS_JMX, " true ").build().metricsJmx());
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set(DlockConfig.METRICS_JMX, "yes").build());
        assertTrue(e.getMessage().contains("dlock.metrics.jmx=yes") && e.getMessage().contains("true, false"),
                e.getMessage());
    }
}
