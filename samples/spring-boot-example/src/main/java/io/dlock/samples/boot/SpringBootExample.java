package io.dlock.samples.boot;

import io.dlock.LockService;
import io.dlock.spring.integration.DlockLeaderInitiator;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A Spring Boot application on dlock, meant to run as three instances over JGroups (see README.md beside the
 * module's pom). dlock's auto-configuration makes the {@link LockService} from the {@code dlock.*} properties of
 * application.properties and, since ShedLock is on the class path, the {@code DlockLockProvider} that
 * {@code @SchedulerLock} uses. Two jobs:
 * <ul>
 *   <li>{@link ReportJob}: scheduled on every instance, run by one instance per tick;</li>
 *   <li>{@link LeaderOnlyJob}: runs only on the leader of the election group {@value #LEADER_GROUP}, moved by a
 *       {@link DlockLeaderInitiator}; when the leader's process dies, the next one takes over.</li>
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

    /** Grants and revokes {@link LeaderOnlyJob} as this node wins and loses the election of {@value #LEADER_GROUP}. */
    @Bean
    DlockLeaderInitiator leaderInitiator(LockService lockService, LeaderOnlyJob job) {
        return new DlockLeaderInitiator(lockService, LEADER_GROUP, job);
    }
}
