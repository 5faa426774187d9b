package io.dlock.spring.boot;

import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.metrics.DlockMeterBinder;
import io.dlock.shedlock.DlockLockProvider;
import io.dlock.spring.integration.DlockLeaderInitiator;
import io.dlock.spring.integration.DlockLockRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Spring Boot auto-configuration of a dlock node, listed in
 * {@code META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}: an application with
 * dlock-api, a transport and Spring Boot on its class path gets a started {@link LockService} from its
 * {@code dlock.*} properties.
 *
 * <ul>
 *   <li>{@link DlockConfig}: every {@code dlock.*} property of the {@link Environment} (application.properties,
 *       YAML, environment variables such as {@code DLOCK_CLUSTER_SIZE=3}, system properties), under the keys of a
 *       {@code dlock.properties} file, validated by {@link DlockConfig#fromProperties}: a bad key or value fails the
 *       context's start with {@code DlockConfig}'s message (see {@link DlockEnvironmentReader}). Not created when
 *       the application has its own {@code DlockConfig} bean.</li>
 *   <li>{@link LockService}: {@link LockService#start(DlockConfig)}, which returns once the node is in a primary
 *       view (with {@code dlock.cluster.size}, once a majority of the nodes has joined), closed with the
 *       context. Neither bean is created when the application has its own {@code LockService} bean; the beans
 *       below then use that one.</li>
 *   <li>{@link DlockHealthIndicator} (health contributor {@code dlock}), when Boot's health API
 *       (spring-boot-health) is on the class path, unless {@code management.health.dlock.enabled=false}.</li>
 *   <li>{@link DlockMeterBinder}, when Micrometer is on the class path, binding the node's meters and those of the
 *       locks named in {@value #METRICS_LOCK_NAMES} (a comma-separated list; none by default); Spring Boot's
 *       metrics support binds it to every meter registry.</li>
 *   <li>{@link DlockLockRegistry}, when Spring Integration (spring-integration-core) is on the class path and the
 *       application has no {@link LockRegistry} of its own.</li>
 *   <li>{@link DlockLockProvider}, when ShedLock (shedlock-core) is on the class path and the application has no
 *       {@link LockProvider} of its own: {@code @SchedulerLock} then takes dlock locks. Closed with the context,
 *       before the lock service.</li>
 * </ul>
 * Each bean backs off when the application defines one of the same type. A {@link DlockLeaderInitiator} is not
 * created: it needs the application's {@code Candidate} and election group, so the application declares it
 * ({@code new DlockLeaderInitiator(lockService, group, candidate)}).
 */
@AutoConfiguration
public class DlockAutoConfiguration {

    /**
     * The locks whose meters {@link DlockMeterBinder} binds, a comma-separated list (or a YAML list). A key of the
     * Spring integration only: it is not passed to {@link DlockConfig}.
     */
    public static final String METRICS_LOCK_NAMES = "dlock.metrics.lock-names";

    /** Spring instantiates it. */
    public DlockAutoConfiguration() {
    }

    /**
     * The node's configuration, from the environment's {@code dlock.*} properties.
     *
     * @throws io.dlock.DlockConfigException for an unknown key or a bad value
     */
    @Bean
    @ConditionalOnMissingBean({DlockConfig.class, LockService.class})
    public DlockConfig dlockConfig(Environment environment) {
        return DlockConfig.fromProperties(DlockEnvironmentReader.read(environment));
    }

    /** The node, started now and closed with the context. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public LockService dlockLockService(DlockConfig config) {
        return LockService.start(config);
    }

    /** The health indicator, when Spring Boot's health API is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("dlock")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean
        DlockHealthIndicator dlockHealthIndicator(LockService service) {
            return new DlockHealthIndicator(service);
        }
    }

    /** The Micrometer binder, when Micrometer is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterBinder.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        DlockMeterBinder dlockMeterBinder(LockService service, Environment environment) {
            return new DlockMeterBinder(service, DlockEnvironmentReader.meteredLockNames(environment));
        }
    }

    /** The Spring Integration lock registry, when Spring Integration is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(LockRegistry.class)
    static class IntegrationConfiguration {

        @Bean
        @ConditionalOnMissingBean(LockRegistry.class)
        DlockLockRegistry dlockLockRegistry(LockService service) {
            return new DlockLockRegistry(service);
        }
    }

    /** The ShedLock lock provider, when ShedLock is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(LockProvider.class)
    static class ShedLockConfiguration {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(LockProvider.class)
        DlockLockProvider dlockLockProvider(LockService service) {
            return new DlockLockProvider(service);
        }
    }
}
