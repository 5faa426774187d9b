package io.dlock.samples.examples;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.FencedResource;
import io.dlock.LockHold;
import io.dlock.LockOwnershipLostException;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.OwnershipLoss;
import io.dlock.StaleFencingTokenException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A lease bounds a hold whose holder hangs, and fencing makes its late write harmless. Two in-memory nodes share a
 * {@link FencedResource} (standing for a database that keeps the highest fencing token it has accepted):
 * <ol>
 *   <li>node 1 takes an owner-free {@link LockHold} asynchronously with a lease of {@code lease}, writes with its
 *       token, and then "hangs": it never releases;</li>
 *   <li>node 2 asks for the lock at once; when the lease runs out, node 1's ownership listener is told
 *       ({@link OwnershipLoss.Cause#LEASE_EXPIRED}) and node 2 gets the lock, with a higher token, and writes;</li>
 *   <li>node 1 wakes up and writes late with its old token: the store refuses it; its release throws
 *       {@link LockOwnershipLostException}, telling it that another holder may have overlapped.</li>
 * </ol>
 * The lease did not stop node 1 (nothing stops a thread in its critical section); the fencing token kept the data
 * safe.
 *
 * <p>Run: {@code java -cp samples/target/dlock.jar io.dlock.samples.examples.LeaseExample [algorithm]}.
 */
public final class LeaseExample {

    private LeaseExample() {
    }

    /** What happened, in order, as lines such as {@code "node 1 wrote with token 3"}. */
    public static List<String> run(MutexAlgorithm algorithm, Duration lease) throws Exception {
        String cluster = "lease-" + UUID.randomUUID();
        List<String> story = new ArrayList<>();
        FencedResource<String> store = new FencedResource<>("empty");
        try (LockService node1 = LockService.start(DlockConfig.builder().mutex(algorithm).cluster(cluster).nodeId(1)
                .build());
             LockService node2 = LockService.start(DlockConfig.builder().mutex(algorithm).cluster(cluster).nodeId(2)
                     .build())) {
            while (node1.view().size() < 2 || node2.view().size() < 2) {
                Thread.sleep(10);
            }
            DistributedLock lock1 = node1.lock("report");
            DistributedLock lock2 = node2.lock("report");
            CompletableFuture<OwnershipLoss> lost = new CompletableFuture<>();
            lock1.addOwnershipListener(lost::complete);

            LockHold hold = lock1.acquireAsync(lease).get(30, TimeUnit.SECONDS);
            long oldToken = hold.fencingToken();
            store.write(oldToken, "node 1's first half");
            story.add("node 1 wrote with token " + oldToken);
            // node 1 hangs here: no release

            if (!lock2.tryLock(Duration.ofSeconds(30), Duration.ofSeconds(30))) {
                throw new IllegalStateException("node 2 did not get the lock after node 1's lease");
            }
            try {
                OwnershipLoss loss = lost.get(30, TimeUnit.SECONDS);
                story.add("node 1 was told: " + loss.cause());
                long newToken = lock2.fencingToken();
                store.write(newToken, "node 2's report");
                story.add("node 2 wrote with token " + newToken);
            } finally {
                lock2.unlock();
            }

            try {
                store.write(oldToken, "node 1's late second half");
                story.add("node 1's late write was accepted"); // never: the store has seen a newer token
            } catch (StaleFencingTokenException refused) {
                story.add("node 1's late write was refused");
            }
            try {
                hold.release();
            } catch (LockOwnershipLostException e) {
                story.add("node 1's release: ownership lost");
            }
            story.add("store: " + store.read());
        }
        return story;
    }

    public static void main(String[] args) throws Exception {
        MutexAlgorithm algorithm = args.length > 0 ? MutexAlgorithm.fromConfigName(args[0])
                : MutexAlgorithm.RICART_AGRAWALA;
        run(algorithm, Duration.ofSeconds(1)).forEach(System.out::println);
    }
}
