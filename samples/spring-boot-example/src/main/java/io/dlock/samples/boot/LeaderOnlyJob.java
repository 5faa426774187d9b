package io.dlock.samples.boot;

import io.dlock.LockService;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * A job that works only on the leader: a Spring Integration {@link Candidate}, granted and revoked by a leader
 * initiator of {@link SpringBootExample}. The example has two: one under dlock's election ({@code DlockLeaderInitiator};
 * dlock elects the live member with the highest node id, so instance 3 leads while it lives), one under Spring's
 * {@code LockRegistryLeaderInitiator} on dlock's lock registry (the instance that took the lock first leads). Kill the
 * leader's process and another instance is granted once JGroups has seen the process gone.
 */
public class LeaderOnlyJob implements Candidate {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderOnlyJob.class);

    private final LockService lockService;
    private final String role;
    private final String label;
    private final AtomicLong runs = new AtomicLong();
    private volatile boolean leader;

    /**
     * @param lockService this instance's node, for its id in the log
     * @param role        the candidate's role: the election group, or the registry's lock key
     * @param label       what the log calls the job, e.g. {@code election leader job}
     */
    public LeaderOnlyJob(LockService lockService, String role, String label) {
        this.lockService = lockService;
        this.role = role;
        this.label = label;
    }

    @Override
    public String getRole() {
        return role;
    }

    @Override
    public String getId() {
        return "node-" + lockService.nodeId().value();
    }

    @Override
    public void onGranted(Context context) {
        leader = true;
        LOG.info("{}: leadership granted to node {}", label, lockService.nodeId().value());
    }

    @Override
    public void onRevoked(Context context) {
        leader = false;
        LOG.info("{}: leadership revoked from node {}", label, lockService.nodeId().value());
    }

    /** Every second, on the leader only: logs {@code <label> run <n> on node <id>}. */
    @Scheduled(fixedRate = 1000)
    public void work() {
        if (leader) {
            LOG.info("{} run {} on node {}", label, runs.incrementAndGet(), lockService.nodeId().value());
        }
    }
}
