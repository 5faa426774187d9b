package io.dlock.samples.boot;

import io.dlock.LockService;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A job that works only on the leader: a Spring Integration {@link Candidate}, granted and revoked by the
 * {@code DlockLeaderInitiator} of {@link SpringBootExample}. dlock elects the live member with the highest node id,
 * so instance 3 leads while it lives; kill it and instance 2 is granted within the time JGroups takes to see the
 * process gone (1 to 2 s for a {@code kill -9}, whose socket closes).
 */
@Component
public class LeaderOnlyJob implements Candidate {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderOnlyJob.class);

    private final LockService lockService;
    private final AtomicLong runs = new AtomicLong();
    private volatile boolean leader;

    /** @param lockService this instance's node, for its id in the log */
    public LeaderOnlyJob(LockService lockService) {
        this.lockService = lockService;
    }

    @Override
    public String getRole() {
        return SpringBootExample.LEADER_GROUP;
    }

    @Override
    public String getId() {
        return "node-" + lockService.nodeId().value();
    }

    @Override
    public void onGranted(Context context) {
        leader = true;
        LOG.info("leadership granted to node {}", lockService.nodeId().value());
    }

    @Override
    public void onRevoked(Context context) {
        leader = false;
        LOG.info("leadership revoked from node {}", lockService.nodeId().value());
    }

    /** Every second, on the leader only: logs {@code leader job run <n> on node <id>}. */
    @Scheduled(fixedRate = 1000)
    public void work() {
        if (leader) {
            LOG.info("leader job run {} on node {}", runs.incrementAndGet(), lockService.nodeId().value());
        }
    }
}
