package io.dlock.inmemory.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.NodeId;
import io.dlock.inmemory.InMemoryNetwork;
import io.dlock.metrics.DlockMeterBinder;
import io.dlock.shedlock.DlockLockProvider;
import io.dlock.spring.integration.DlockLockRegistry;
import io.dlock.spring.boot.DlockAutoConfiguration;
import io.dlock.spring.boot.DlockHealthIndicator;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * dlock-api's Spring Boot auto-configuration ({@link DlockAutoConfiguration}) in a real application context over the
 * in-memory transport: the {@code dlock.*} properties bound into the same validated {@link DlockConfig} as a
 * {@code dlock.properties} file (same keys, same errors), the {@link LockService} bean started and closed with the
 * context, backing off for the application's own, and the health indicator, Micrometer binder, Spring Integration
 * lock registry and ShedLock lock provider present or absent with their libraries. Each test has a cluster name of its own.
 */
@Timeout(30)
class DlockAutoConfigurationTest {

    private final String cluster = "spring-" + UUID.randomUUID();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DlockAutoConfiguration.class))
            .withPropertyValues("dlock.transport=inmemory", "dlock.cluster=" + cluster);

    /** The properties reach DlockConfig under their keys, and the LockService bean is a started node that locks. */
    @Test
    void startsLockServiceFromDlockProperties() {
        runner.withPropertyValues("dlock.cluster.size=1", "dlock.node.id=7", "dlock.mutex=centralized",
                        "dlock.mutex.send-denied=true", "dlock.lock.try-timeout-ms=500")
                .run(context -> {
                    assertThat(context).hasSingleBean(LockService.class).hasSingleBean(DlockConfig.class);
                    LockService service = context.getBean(LockService.class);
                    DlockConfig config = service.config();
                    assertThat(context.getBean(DlockConfig.class)).isSameAs(config);
                    assertThat(config.cluster()).isEqualTo(cluster);
                    assertThat(config.clusterSize()).hasValue(1);
                    assertThat(config.mutex()).isEqualTo(MutexAlgorithm.CENTRALIZED);
                    assertThat(config.mutexOptions()).containsEntry("send-denied", "true");
                    assertThat(config.tryTimeout()).isEqualTo(Duration.ofMillis(500));
                    assertThat(service.nodeId()).isEqualTo(NodeId.of(7));
                    assertThat(service.view().primary()).isTrue();
                    DistributedLock lock = service.lock("orders");
                    assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
                    lock.unlock();
                });
    }

    /**
     * Environment variables cannot write dashes: DLOCK_LOCK_TRYTIMEOUTMS and DLOCK_LOCK_IDLE_EXPIRY_MS reach
     * dlock.lock.try-timeout-ms and dlock.lock.idle-expiry-ms all the same, as does a transport's setting.
     */
    @Test
    void environmentVariablesBindThroughRelaxedNames() {
        runner.withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(
                        new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("DLOCK_CLUSTER_SIZE", "1", "DLOCK_LOCK_TRYTIMEOUTMS", "250",
                                        "DLOCK_LOCK_IDLE_EXPIRY_MS", "5000", "DLOCK_INMEMORY_DELAYMS", "0"))))
                .run(context -> {
                    DlockConfig config = context.getBean(LockService.class).config();
                    assertThat(config.clusterSize()).hasValue(1);
                    assertThat(config.tryTimeout()).isEqualTo(Duration.ofMillis(250));
                    assertThat(config.idleExpiry()).isEqualTo(Duration.ofMillis(5000));
                    assertThat(config.values()).containsEntry("dlock.inmemory.delay-ms", "0");
                });
    }

    /** A bad value fails the context's start with exactly the message DlockConfig gives for a properties file. */
    @Test
    void badValueFailsStartWithDlockConfigMessage() {
        Properties file = new Properties();
        file.setProperty("dlock.cluster.size", "-1");
        String expected = messageOf(() -> DlockConfig.fromProperties(file));
        assertThat(expected).contains("dlock.cluster.size").contains("-1");
        runner.withPropertyValues("dlock.cluster.size=-1").run(context -> {
            assertThat(context).hasFailed();
            Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
            assertThat(cause).isInstanceOf(DlockConfigException.class).hasMessage(expected);
        });
    }

    /** A misspelt key is rejected as in a properties file, with the list of allowed keys. */
    @Test
    void unknownKeyFailsStart() {
        runner.withPropertyValues("dlock.lock.try-timout-ms=500").run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(DlockConfigException.class)
                    .hasMessageContaining("unknown configuration key 'dlock.lock.try-timout-ms'")
                    .hasMessageContaining(DlockConfig.TRY_TIMEOUT_MS);
        });
    }

    /** The application's own LockService wins: no second node, no DlockConfig from the properties. */
    @Test
    void backsOffForApplicationLockService() {
        LockService own = LockService.start(DlockConfig.builder().cluster(cluster + "-own").clusterSize(1).build());
        try {
            runner.withPropertyValues("dlock.cluster.size=-1") // would fail if it were read
                    .withBean(LockService.class, () -> own)
                    .run(context -> {
                        assertThat(context).hasNotFailed().hasSingleBean(LockService.class)
                                .doesNotHaveBean(DlockConfig.class);
                        assertThat(context.getBean(LockService.class)).isSameAs(own);
                        assertThat(context.getBean(DlockHealthIndicator.class).health().getDetails())
                                .containsEntry("node", own.nodeId().value());
                    });
        } finally {
            own.close();
        }
    }

    /** The health is UP in a primary view, with the node, the members, the view and the cluster size; DOWN once closed. */
    @Test
    void healthUpInPrimaryViewDownWhenClosed() {
        runner.withPropertyValues("dlock.cluster.size=1", "dlock.node.id=3").run(context -> {
            HealthIndicator indicator = context.getBean(DlockHealthIndicator.class);
            Health up = indicator.health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("node", 3L).containsEntry("members", List.of(3L))
                    .containsEntry("primary", true).containsEntry("clusterSize", 1).containsKey("viewEpoch");

            context.getBean(LockService.class).close();
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("reason", "the node is closed");
        });
    }

    /**
     * A node cut off from the majority of dlock.cluster.size=3 is DOWN, with the reason and its one-member view, and
     * UP again after the heal.
     */
    @Test
    void healthDownWhenViewIsNotPrimary() throws Exception {
        DlockConfig first = DlockConfig.builder().cluster(cluster).clusterSize(3).nodeId(1).build();
        DlockConfig second = first.toBuilder().nodeId(2).build();
        CompletableFuture<LockService> one = CompletableFuture.supplyAsync(() -> LockService.start(first));
        CompletableFuture<LockService> two = CompletableFuture.supplyAsync(() -> LockService.start(second));
        try {
            runner.withPropertyValues("dlock.cluster.size=3", "dlock.node.id=0").run(context -> {
                HealthIndicator indicator = context.getBean(DlockHealthIndicator.class);
                LockService service = context.getBean(LockService.class);
                awaitHealth(indicator, Status.UP, 3);

                InMemoryNetwork.shared().split(cluster, List.of(List.of(NodeId.of(0)), List.of(NodeId.of(1), NodeId.of(2))));
                Health down = awaitHealth(indicator, Status.DOWN, 1);
                assertThat(down.getDetails()).containsEntry("primary", false).containsEntry("members", List.of(0L))
                        .containsEntry("clusterSize", 3);
                assertThat((String) down.getDetails().get("reason")).contains("not primary");
                assertThat(service.isClosed()).isFalse();

                InMemoryNetwork.shared().heal(cluster);
                awaitHealth(indicator, Status.UP, 3);
            });
        } finally {
            InMemoryNetwork.shared().heal(cluster);
            one.get(10, TimeUnit.SECONDS).close();
            two.get(10, TimeUnit.SECONDS).close();
        }
    }

    /** management.health.dlock.enabled=false, or no spring-boot-health on the class path: no health indicator. */
    @Test
    void noHealthIndicatorWhenDisabledOrWithoutHealthApi() {
        ApplicationContextRunner single = runner.withPropertyValues("dlock.cluster.size=1");
        single.withPropertyValues("management.health.dlock.enabled=false").run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(LockService.class)
                        .doesNotHaveBean(DlockHealthIndicator.class));
        single.withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(LockService.class)
                        .doesNotHaveBean(DlockHealthIndicator.class));
    }

    /**
     * With Micrometer, a DlockMeterBinder binds the node's meters and those of the locks in dlock.metrics.lock-names
     * (a key DlockConfig never sees); without Micrometer on the class path there is none, and the node starts.
     */
    @Test
    void meterBinderPresentOnlyWithMicrometer() {
        ApplicationContextRunner single = runner.withPropertyValues("dlock.cluster.size=1",
                "dlock.metrics.lock-names=orders,jobs");
        single.run(context -> {
            assertThat(context).hasSingleBean(DlockMeterBinder.class);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(DlockMeterBinder.class).bindTo(registry);
            assertThat(registry.get("dlock.node.primary").gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("dlock.lock.hold").tag("lock", "orders").functionTimer()).isNotNull();
            assertThat(registry.get("dlock.lock.hold").tag("lock", "jobs").functionTimer()).isNotNull();
            assertThat(context.getBean(LockService.class).config().values()).doesNotContainKey("dlock.metrics.lock-names");
        });
        single.withClassLoader(new FilteredClassLoader(MeterBinder.class)).run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(LockService.class)
                        .doesNotHaveBean(DlockMeterBinder.class));
    }

    /**
     * With Spring Integration and ShedLock on the class path, a DlockLockRegistry and a DlockLockProvider over the node
     * take dlock locks; without those libraries there are none, and the node starts.
     */
    @Test
    void registryAndLockProviderPresentOnlyWithTheirLibraries() {
        ApplicationContextRunner single = runner.withPropertyValues("dlock.cluster.size=1");
        single.run(context -> {
            assertThat(context).hasSingleBean(DlockLockRegistry.class).hasSingleBean(DlockLockProvider.class);
            Lock lock = context.getBean(DlockLockRegistry.class).obtain("orders");
            assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
            lock.unlock();
            Optional<SimpleLock> held = context.getBean(DlockLockProvider.class)
                    .lock(new LockConfiguration(Instant.now(), "report", Duration.ofSeconds(10), Duration.ZERO));
            assertThat(held).isPresent();
            assertThat(DlockLockProvider.currentFencingToken()).isPresent();
            held.get().unlock();
        });
        single.withClassLoader(new FilteredClassLoader(LockRegistry.class, LockProvider.class)).run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(LockService.class)
                        .doesNotHaveBean(DlockLockRegistry.class).doesNotHaveBean(DlockLockProvider.class));
    }

    /** The application's own ShedLock LockProvider and Spring Integration LockRegistry win over dlock's. */
    @Test
    void backsOffForApplicationLockProviderAndRegistry() {
        LockProvider ownProvider = configuration -> Optional.empty();
        DefaultLockRegistry ownRegistry = new DefaultLockRegistry();
        runner.withPropertyValues("dlock.cluster.size=1")
                .withBean(LockProvider.class, () -> ownProvider)
                .withBean(LockRegistry.class, () -> ownRegistry)
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(DlockLockProvider.class)
                            .doesNotHaveBean(DlockLockRegistry.class);
                    assertThat(context.getBean(LockProvider.class)).isSameAs(ownProvider);
                    assertThat(context.getBean(LockRegistry.class)).isSameAs(ownRegistry);
                });
    }

    /** Closing the context closes the node: it leaves the cluster and refuses new locks. */
    @Test
    void contextCloseClosesLockService() {
        AtomicReference<LockService> started = new AtomicReference<>();
        runner.withPropertyValues("dlock.cluster.size=1").run(context -> {
            started.set(context.getBean(LockService.class));
            assertThat(started.get().isClosed()).isFalse();
        });
        assertThat(started.get().isClosed()).isTrue();
        assertThatThrownBy(() -> started.get().lock("orders")).isInstanceOf(IllegalStateException.class);
    }

    /** The indicator's health once it has {@code status} with {@code members} members (within 10 s). */
    private static Health awaitHealth(HealthIndicator indicator, Status status, int members) {
        AtomicReference<Health> last = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            last.set(indicator.health());
            return last.get().getStatus().equals(status)
                    && ((List<?>) last.get().getDetails().get("members")).size() == members;
        });
        return last.get();
    }

    private static String messageOf(Runnable call) {
        try {
            call.run();
        } catch (DlockConfigException e) {
            return e.getMessage();
        }
        throw new AssertionError("no DlockConfigException");
    }
}
