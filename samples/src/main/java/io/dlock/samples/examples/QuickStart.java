package io.dlock.samples.examples;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LeaderElection;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The README's quick start as a program: three nodes on the in-memory network, each with two threads
 * that add to a shared total under one distributed lock, and a leader listener.
 *
 * <p>Run: {@code java -cp samples/target/dlock.jar io.dlock.samples.examples.QuickStart [algorithm]}.
 */
public final class QuickStart {

    private static long total; // guarded by the distributed lock only

    private QuickStart() {
    }

    public static void main(String[] args) throws Exception {
        MutexAlgorithm algorithm = args.length > 0 ? MutexAlgorithm.fromConfigName(args[0]) : MutexAlgorithm.RICART_AGRAWALA;
        List<LockService> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(LockService.start(DlockConfig.builder().mutex(algorithm).cluster("quickstart").nodeId(i).build()));
        }
        try {
            LeaderElection election = nodes.get(0).election("scheduler");
            election.addListener(change -> System.out.printf("leader of %s is now %s (epoch %d)%n",
                    change.group(), change.leader(), change.epoch()));
            election.awaitLeader(Duration.ofSeconds(5));

            List<Thread> workers = new ArrayList<>();
            for (LockService node : nodes) {
                DistributedLock lock = node.lock("orders");
                for (int t = 0; t < 2; t++) {
                    Thread worker = new Thread(() -> {
                        for (int i = 0; i < 100; i++) {
                            lock.lock();
                            try {
                                total++;
                            } finally {
                                lock.unlock();
                            }
                        }
                    });
                    workers.add(worker);
                    worker.start();
                }
            }
            for (Thread w : workers) {
                w.join(TimeUnit.MINUTES.toMillis(1));
            }
            DistributedLock lock = nodes.get(0).lock("orders");
            lock.lock();
            try {
                System.out.printf("%s: total = %d (expected 600), last fencing token %d%n",
                        algorithm.configName(), total, lock.fencingToken());
            } finally {
                lock.unlock();
            }
            long messages = nodes.stream().mapToLong(n -> n.metrics().messagesSent()).sum();
            long entries = nodes.stream().mapToLong(n -> n.metrics().entries()).sum();
            System.out.printf("%d messages for %d entries (%.2f per entry)%n", messages, entries, (double) messages / entries);
        } finally {
            nodes.forEach(LockService::close);
        }
    }
}
