package io.dlock.samples.boot;

import io.dlock.LockService;
import io.dlock.shedlock.DlockLockProvider;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A job scheduled every {@value #PERIOD_S} seconds on every instance, which runs on one instance per tick: ShedLock's
 * {@code @SchedulerLock} takes the dlock lock {@value #LOCK} through {@code DlockLockProvider}, and the instances that
 * do not get it skip the tick. It logs the tick, its node and its fencing token, which grows from tick to tick
 * whichever node runs it (a store that remembers the highest token it saw would refuse a late write of an older run).
 *
 * <p>{@code lockAtLeastFor} keeps the lock after the job's quick run until the other instances' attempts at the same
 * tick have given up: longer than the spread of the instances' ticks plus {@code dlock.lock.try-timeout-ms} (500 ms
 * in application.properties), shorter than the period. {@code lockAtMostFor} is the lease of a run that hangs.
 */
@Component
public class ReportJob {

    /** The dlock lock of the job. */
    public static final String LOCK = "report";
    /** The job's period in seconds; its ticks are the multiples of it on the wall clock. */
    public static final int PERIOD_S = 2;

    private static final Logger LOG = LoggerFactory.getLogger(ReportJob.class);

    private final LockService lockService;

    /** @param lockService this instance's node, for its id in the log */
    public ReportJob(LockService lockService) {
        this.lockService = lockService;
    }

    /** One run: logs {@code report tick <epoch second> ran on node <id> with fencing token <token>}. */
    @Scheduled(cron = "*/" + PERIOD_S + " * * * * *")
    @SchedulerLock(name = LOCK, lockAtLeastFor = "1200ms", lockAtMostFor = "30s")
    public void report() {
        long tick = Instant.now().truncatedTo(ChronoUnit.SECONDS).getEpochSecond() / PERIOD_S * PERIOD_S;
        long token = DlockLockProvider.currentFencingToken().orElseThrow();
        LOG.info("report tick {} ran on node {} with fencing token {}", tick, lockService.nodeId().value(), token);
    }
}
