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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The client JVM of {@link NemesisTest}: one dlock node on a JGroups stack whose {@value #WORKERS} worker threads
 * loop over K locks {@code counter-0} … {@code counter-(K-1)}: pick one (seeded), {@code tryLock(1 s)}; on success
 * read the fencing token, hold the lock 0-{@value #MAX_HOLD_MS} ms (seeded), add one to that lock's counter in its
 * own shared {@link FencedFile} ({@link #storeOf}) in one fenced read-modify-write, {@code unlock()}. An
 * {@link io.dlock.OwnershipListener} on each lock records each hold the node reports lost. The node runs with
 * {@code dlock.lock.local-handoff=2}. With several locks, each has its own coordinator (centralized's rendezvous
 * owner of the name) or token, so a fault that hits any node hits some lock's coordinator or holder.
 *
 * <p>Every invocation and completion is written at once to standard output as one history line, {@link #HISTORY}
 * followed by {@code <timeNanos> <process> <op> [<arg>...]}: the time is {@code System.nanoTime()} (one clock for
 * every JVM of the machine); the process is {@code <node>.<incarnation>.<thread>}, thread 0 being the JVM itself
 * and 1, 2 the workers, and a worker's lines name their lock in front of it, {@code <lock>/<process>}
 * ({@link LockTag}), which the test takes off when it splits the history into one per lock. The ops:
 * <pre>
 * started ms          (thread 0) LockService.start returned after ms milliseconds
 * startfail text      (thread 0) LockService.start threw; the JVM then exits
 * acquire             tryLock(1 s) invoked
 * granted token       it returned true; the hold's fencing token
 * refused             it returned false
 * release             unlock() invoked
 * released            it returned
 * lost token          unlock() threw LockOwnershipLostException: the hold of that token was lost
 * told token          the ownership listener reported the hold of that token lost
 * write token value   the store accepted the write; value is the counter's new value
 * stale token         the store refused it (StaleFencingTokenException)
 * error text          anything else that was thrown
 * </pre>
 * When {@code fencingToken()} throws right after a grant (the hold was lost at once), the worker writes
 * {@code granted} with the token the exception names, skips the store and unlocks: {@code release}, then
 * {@code lost} when {@code unlock()} throws too, as it does for a lost hold. So {@code lost} always completes a
 * {@code release}, and a client's lines follow acquire, (granted (write|stale)? release (released|lost) |
 * refused), as the history checker reads them.
 *
 * <p>Input: {@code exit} (or the end of standard input) lets each worker finish its round, closes the service
 * (a clean leave) and ends the JVM. Other lines, such as {@code VIEW} events (see {@link ChildOutput}) and logs,
 * are for a failure's report.
 *
 * <p>Arguments: a {@link NodeSpec}, then the seed of the hold times and the choices of lock, then K.
 */
public final class NemesisNode {

    /** What starts every history line on standard output. */
    static final String HISTORY = "H ";
    static final int WORKERS = 2;
    static final int MAX_HOLD_MS = 20;
    private static final long TRY_LOCK_MS = 1_000;
    /** What the locks' names start with: {@code counter-0}, {@code counter-1}, … */
    private static final String LOCK_PREFIX = "counter-";

    /** Set by "exit": each worker ends after its round (never interrupted: an interrupt closes the store's channel). */
    private static volatile boolean stopping;

    private NemesisNode() {
    }

    public static void main(String[] args) throws Exception {
        NodeSpec spec = NodeSpec.parse(args);
        long seed = Long.parseLong(NodeSpec.rest(args)[0]);
        int lockCount = Integer.parseInt(NodeSpec.rest(args)[1]);
        String jvm = spec.id() + "." + spec.incarnation() + ".0";
        ChildOutput.line("PID " + ProcessHandle.current().pid());
        long t0 = System.nanoTime();
        LockService service;
        try {
            DlockConfig config = spec.config().set(DlockConfig.LOCAL_HANDOFF, "2").build();
            service = LockService.start(config);
        } catch (RuntimeException e) {
            record(jvm, "startfail " + text(e));
            System.exit(3);
            return;
        }
        record(jvm, "started " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        Thread watcher = new Thread(() -> ChildOutput.watchViews(service, change -> record(jvm, "view " + change)),
                "view-watcher");
        watcher.setDaemon(true);
        watcher.start();

        Map<Thread, String> processes = new ConcurrentHashMap<>();
        List<Counter> counters = new ArrayList<>();
        for (String name : lockNames(lockCount)) {
            FencedFile store = new FencedFile(storeOf(Path.of(spec.store()), name));
            Counter counter = new Counter(name, service.lock(name), store);
            counter.lock.addOwnershipListener(loss -> record(LockTag.tag(name,
                    processes.getOrDefault(loss.holder(), jvm)), "told " + loss.fencingToken()));
            counters.add(counter);
        }
        List<Thread> workers = new ArrayList<>();
        for (int t = 1; t <= WORKERS; t++) {
            String process = spec.id() + "." + spec.incarnation() + "." + t;
            Random random = new Random(seed ^ (spec.id() << 40) ^ ((long) spec.incarnation() << 20) ^ t);
            Thread worker = new Thread(() -> work(counters, process, random), "worker-" + t);
            worker.setDaemon(true);
            processes.put(worker, process);
            workers.add(worker);
        }
        workers.forEach(Thread::start);

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("exit")) {
            if (line.equals("metrics")) {
                ChildOutput.line("metrics: view " + service.view());
                for (Counter counter : counters) {
                    ChildOutput.line("metrics: lock '" + counter.name + "' " + counter.lock.metrics());
                }
            }
        }
        stopping = true;
        for (Thread worker : workers) {
            worker.join(10_000);
        }
        service.close();
        System.exit(0);
    }

    /** The names of {@code count} locks, {@code counter-0} first. */
    static List<String> lockNames(int count) {
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(LOCK_PREFIX + i);
        }
        return names;
    }

    /** The shared store of lock {@code name}: beside {@code store}, {@code <name>-<store's file name>}. */
    static Path storeOf(Path store, String name) {
        return store.resolveSibling(name + "-" + store.getFileName());
    }

    /** One lock and its store. */
    private record Counter(String name, DistributedLock lock, FencedFile store) {
    }

    /** One worker's loop, until "exit": a seeded choice of lock, then one round on it. */
    private static void work(List<Counter> counters, String process, Random random) {
        while (!stopping) {
            Counter counter = counters.get(random.nextInt(counters.size()));
            if (!round(counter.lock, counter.store, LockTag.tag(counter.name, process), random)) {
                return;
            }
        }
    }

    /** {@code tryLock}, and if granted the hold and {@code unlock()}; false once the thread is interrupted. */
    private static boolean round(DistributedLock lock, FencedFile store, String process, Random random) {
        record(process, "acquire");
        try {
            if (!lock.tryLock(TRY_LOCK_MS, TimeUnit.MILLISECONDS)) {
                record(process, "refused");
                return true;
            }
        } catch (InterruptedException e) {
            record(process, "error " + text(e));
            return false;
        } catch (RuntimeException e) {
            record(process, "error " + text(e));
            return true;
        }
        try {
            hold(lock, store, process, random);
        } catch (InterruptedException e) {
            record(process, "error " + text(e));
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            record(process, "error " + text(e));
        }
        record(process, "release");
        try {
            lock.unlock();
            record(process, "released");
        } catch (LockOwnershipLostException e) {
            record(process, "lost " + e.fencingToken());
        } catch (RuntimeException e) {
            record(process, "error " + text(e));
        }
        return !Thread.currentThread().isInterrupted();
    }

    /** Inside the hold: the token, a seeded wait, the fenced increment. */
    private static void hold(DistributedLock lock, FencedFile store, String process, Random random)
            throws InterruptedException {
        long token;
        try {
            token = lock.fencingToken();
        } catch (LockOwnershipLostException e) {
            record(process, "granted " + e.fencingToken()); // unlock() reports the loss
            return;
        }
        record(process, "granted " + token);
        Thread.sleep(random.nextInt(MAX_HOLD_MS + 1));
        try {
            String value = store.update(token, last -> Long.toString(last == null ? 1 : Long.parseLong(last) + 1));
            record(process, "write " + token + " " + value);
        } catch (StaleFencingTokenException e) {
            record(process, "stale " + token);
        }
    }

    private static void record(String process, String op) {
        ChildOutput.timedLine(HISTORY, process + " " + op);
    }

    /** A throwable as one line of text. */
    private static String text(Throwable e) {
        return e.toString().replace('\n', ' ').replace('\r', ' ');
    }
}
