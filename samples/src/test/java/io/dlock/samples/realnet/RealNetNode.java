package io.dlock.samples.realnet;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockOwnershipLostException;
import io.dlock.LockService;
import io.dlock.StaleFencingTokenException;
import io.dlock.samples.examples.FencedFile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of the real-network tests: one dlock node on a JGroups stack that, in a loop, takes the
 * lock {@code counter}, reads the last value of a shared {@link FencedFile}, waits {@code hold} ms, then
 * writes the store's last value plus one with the lock's fencing token, in one fenced read-modify-write
 * ({@link FencedFile#update}), recording the value it read when it took the lock ({@code "<value> n<id>
 * r<read>"}: a read other than value minus one means another node wrote while this one held the lock),
 * then waits {@code think} ms. Every event goes
 * to standard output as one line with the wall-clock time in ms (all nodes run on one machine, so their
 * clocks agree):
 * <pre>
 * PID pid
 * STARTED time startMillis viewSize        (LockService.start returned)
 * STARTFAIL time message                   (LockService.start threw; the process then exits)
 * VIEW time epoch size primary             (a new view, polled every 20 ms)
 * ACQ time token                           (the lock was granted)
 * W time token value                       (the store accepted the write)
 * STALE time token                         (the store refused it: a newer token was accepted)
 * LOST time                                (unlock said the hold was lost meanwhile: a pause or a cut; it goes on)
 * PAUSING time token                       (after "pause-holding": it holds the lock and stops itself)
 * STOPPED time                             (after "exit": the service was closed cleanly)
 * </pre>
 * Input: {@code exit} stops the loop and closes the service (a clean leave); {@code pause-holding} makes the
 * node send itself {@code SIGSTOP} right after its next grant, before it touches the store, so that it is
 * paused holding the lock but no file lock (the test resumes it with {@code SIGCONT}); {@code metrics} prints the
 * lock's counters on this node and its view as a log line (for a failure's report).
 *
 * <p>Arguments: a {@link NodeSpec}, then {@code holdMs thinkMs}.
 */
public final class RealNetNode {

    /** Set by "exit": the work loop ends after its current round (not interrupted: an interrupt closes the store's channel). */
    private static volatile boolean stopping;
    /** Set by "pause-holding": after its next grant, the node stops itself (SIGSTOP) while it holds the lock. */
    private static volatile boolean pauseHolding;

    private RealNetNode() {
    }

    public static void main(String[] args) throws Exception {
        NodeSpec spec = NodeSpec.parse(args);
        String[] own = NodeSpec.rest(args);
        long id = spec.id();
        FencedFile store = new FencedFile(Path.of(spec.store()));
        long holdMs = Long.parseLong(own[0]);
        long thinkMs = Long.parseLong(own[1]);
        DlockConfig config = spec.config().build();
        print("PID " + ProcessHandle.current().pid());
        long t0 = System.nanoTime();
        LockService service;
        try {
            service = LockService.start(config);
        } catch (RuntimeException e) {
            print("STARTFAIL " + System.currentTimeMillis() + " " + e.getMessage().replace('\n', ' '));
            System.exit(3);
            return;
        }
        print("STARTED " + System.currentTimeMillis() + " " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)
                + " " + service.view().size());
        Thread watcher = new Thread(() -> ChildOutput.watchViews(service), "view-watcher");
        watcher.setDaemon(true);
        watcher.start();
        Thread work = new Thread(() -> work(service.lock("counter"), store, holdMs, thinkMs, id), "work");
        work.setDaemon(true);
        work.start();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("exit")) {
            if (line.equals("pause-holding")) {
                pauseHolding = true;
            } else if (line.equals("metrics")) {
                print("metrics: view " + service.view() + ", lock 'counter' " + service.lock("counter").metrics());
            }
        }
        stopping = true;
        work.join(5_000);
        service.close();
        print("STOPPED " + System.currentTimeMillis());
        System.exit(0);
    }

    private static void work(DistributedLock lock, FencedFile store, long holdMs, long thinkMs, long id) {
        try {
            while (!stopping) {
                if (!lock.tryLock(200, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                try {
                    long token = lock.fencingToken();
                    print("ACQ " + System.currentTimeMillis() + " " + token);
                    if (pauseHolding) {
                        pauseHolding = false;
                        print("PAUSING " + System.currentTimeMillis() + " " + token);
                        stopSelf(); // returns once the test sends SIGCONT
                    }
                    long read = store.last().map(e -> value(e.value())).orElse(0L);
                    if (holdMs > 0) {
                        Thread.sleep(holdMs);
                    }
                    try {
                        String written = store.update(token,
                                last -> (last == null ? 1 : value(last) + 1) + " n" + id + " r" + read);
                        print("W " + System.currentTimeMillis() + " " + token + " " + value(written));
                    } catch (StaleFencingTokenException e) {
                        print("STALE " + System.currentTimeMillis() + " " + token);
                    }
                } finally {
                    unlockOrReportLost(lock);
                }
                if (thinkMs > 0) {
                    Thread.sleep(thinkMs);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            print("ERROR " + System.currentTimeMillis() + " " + e);
        }
    }

    /**
     * Releases the lock. A hold lost meanwhile (the node was paused or cut off past its epoch lease) makes
     * {@code unlock} end the local hold and throw; a client goes on, as an application would, and says so.
     */
    private static void unlockOrReportLost(DistributedLock lock) {
        try {
            lock.unlock();
        } catch (LockOwnershipLostException e) {
            print("LOST " + System.currentTimeMillis());
        }
    }

    /** Sends SIGSTOP to this JVM (outside the store, so no file lock is held while stopped). */
    private static void stopSelf() throws InterruptedException {
        try {
            new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        } catch (java.io.IOException e) {
            print("ERROR " + System.currentTimeMillis() + " cannot stop itself: " + e);
        }
    }

    /** The counter in a store value {@code "<counter> n<id> r<read>"}. */
    static long value(String storeValue) {
        return Long.parseLong(storeValue.split(" ")[0]);
    }

    private static void print(String line) {
        ChildOutput.line(line);
    }
}
