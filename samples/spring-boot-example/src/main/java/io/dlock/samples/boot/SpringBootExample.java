package io.dlock.samples.boot;

import io.dlock.LockService;
import io.dlock.spring.integration.DlockLeaderInitiator;
import io.dlock.spring.integration.DlockLockRegistry;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A Spring Boot application on dlock, meant to run as three instances over JGroups (see README.md beside the
 * module's pom). dlock's auto-configuration makes the {@link LockService} from the {@code dlock.*} properties of
 * application.properties and, since ShedLock is on the class path, the {@code DlockLockProvider} that
 * {@code @SchedulerLock} uses. Two jobs:
 * <ul>
 *   <li>{@link ReportJob}: scheduled on every instance, run by one instance per tick;</li>
 *   <li>{@link LeaderOnlyJob}s, each running only on its leader: the {@code election leader job} on the leader of
 *       the election group {@value #LEADER_GROUP}, moved by a {@link DlockLeaderInitiator}; the
 *       {@code registry leader job} on the holder of the registry lock {@value #REGISTRY_LEADER_LOCK}, moved by
 *       Spring's {@link LockRegistryLeaderInitiator} on the auto-configured {@link DlockLockRegistry}. When a
 *       leader's process dies, another instance takes over.</li>
 * </ul>
 */
@SpringBootApplication
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "30s")
public class SpringBootExample {

    /** The election group of the leader-only job. */
    public static final String LEADER_GROUP = "example-leader";

    /** Starts one instance: {@code --dlock.node.id=N --dlock.jgroups.port=P} and any other property. */
    public static void main(String[] args) {
        SpringApplication.run(SpringBootExample.class, args);
    }

    /** The registry lock whose holder runs the registry leader job. */
    public static final String REGISTRY_LEADER_LOCK = "example-registry-leader";

    /** The job of the election's leader. */
    @Bean
    LeaderOnlyJob electionLeaderJob(LockService lockService) {
        return new LeaderOnlyJob(lockService, LEADER_GROUP, "election leader job");
    }

    /** Grants and revokes the election leader job as this node wins and loses the election of {@value #LEADER_GROUP}. */
    @Bean
    DlockLeaderInitiator leaderInitiator(LockService lockService, @Qualifier("electionLeaderJob") LeaderOnlyJob job) {
        return new DlockLeaderInitiator(lockService, LEADER_GROUP, job);
    }

    /** The job of the registry lock's holder. */
    @Bean
    LeaderOnlyJob registryLeaderJob(LockService lockService) {
        return new LeaderOnlyJob(lockService, REGISTRY_LEADER_LOCK, "registry leader job");
    }

    /**
     * Spring Integration's initiator on dlock's registry: it keeps trying the lock {@value #REGISTRY_LEADER_LOCK} and
     * grants the registry leader job while it holds it.
     */
    @Bean
    LockRegistryLeaderInitiator registryLeaderInitiator(DlockLockRegistry registry,
                                                        @Qualifier("registryLeaderJob") LeaderOnlyJob job) {
        return new LockRegistryLeaderInitiator(registry, job);
    }
}
