package io.dlock.samples.virtualthreads;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The child-JVM program of {@link VirtualThreadLockTest}: one scenario with virtual threads on three
 * in-memory dlock nodes, under a {@link PinRecorder}. It judges nothing; it prints what it saw as
 * {@code RESULT key=value} lines, one {@code PIN ...} line per pinned wait and one {@code ERROR ...} line
 * per unexpected exception, and the test asserts on them. Needs Java 21 or later.
 *
 * <p>Usage: {@code VirtualThreadScenarios contend|pin-control|ownership <jfr-file> <algorithm> <threads>}
 * <ul>
 *   <li>{@code contend}: {@code threads} virtual threads, spread over the three nodes, each take the lock
 *       once with {@link DistributedLock#withLock} and check, inside, that nobody else is inside, that they
 *       own it, and that the fencing token grew; an unsynchronised counter counts the entries.</li>
 *   <li>{@code pin-control}: a virtual thread waits for the lock (held by another node) inside a class
 *       initializer, where the JVM pins it to its carrier even on JDK 24+ (JEP 491), to prove that the
 *       recording sees a pinned wait for the cluster when there is one.</li>
 *   <li>{@code ownership}: a virtual thread holds the lock; another virtual thread (on the same carrier when
 *       the scheduler has one) and a platform thread see that they do not, and cannot unlock it.</li>
 * </ul>
 */
final class VirtualThreadScenarios {

    private static final String LOCK = "vthreads";
    private static final long DEADLINE_S = 120;

    /** Read by {@link WaitsForTheLockInItsInitializer}'s initializer. */
    private static volatile DistributedLock controlLock;

    private final List<LockService> nodes = new ArrayList<>();
    private final Queue<String> errors = new ConcurrentLinkedQueue<>();

    private VirtualThreadScenarios() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: VirtualThreadScenarios contend|pin-control|ownership "
                    + "<jfr-file> <algorithm> <threads>; got " + List.of(args));
        }
        VirtualThreadScenarios run = new VirtualThreadScenarios();
        List<String> pins;
        try (PinRecorder recorder = new PinRecorder()) {
            try {
                run.startNodes(MutexAlgorithm.fromConfigName(args[2]));
                run.scenario(args[0]).accept(Integer.parseInt(args[3]));
            } finally {
                pins = recorder.stopAndRead(Path.of(args[1]));
                run.nodes.forEach(LockService::close);
            }
        }
        result("pins", pins.size());
        pins.forEach(pin -> System.out.println("PIN " + pin));
        result("errors", run.errors.size());
        run.errors.forEach(error -> System.out.println("ERROR " + error));
        System.out.flush();
        System.exit(0);
    }

    private Consumer<Integer> scenario(String name) {
        switch (name) {
            case "contend":
                return this::contend;
            case "pin-control":
                return threads -> pinControl();
            case "ownership":
                return threads -> ownership();
            default:
                throw new IllegalArgumentException("unknown scenario '" + name
                        + "'; allowed: contend, pin-control, ownership");
        }
    }

    /**
     * Three nodes that see each other, and one lock/unlock per node on this platform thread, so that every
     * class on the lock's path is initialized before a virtual thread runs it (a virtual thread waiting for
     * another thread's class initialization is pinned, which is not what the test looks for).
     */
    private void startNodes(MutexAlgorithm algorithm) throws InterruptedException {
        String cluster = "vthreads-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            nodes.add(LockService.start(DlockConfig.builder().mutex(algorithm).cluster(cluster).nodeId(i).build()));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!nodes.stream().allMatch(n -> n.view().size() == 3)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the three nodes did not see each other within 10 s");
            }
            Thread.sleep(10);
        }
        for (LockService node : nodes) {
            node.lock(LOCK).withLock(() -> { });
        }
    }

    /** State that only the dlock lock guards: plain fields. */
    private static final class Guarded {
        long entries;
        long lastFence = Long.MIN_VALUE;
        int fenceViolations;
    }

    private void contend(int threads) {
        Guarded guarded = new Guarded();
        AtomicReference<Thread> inside = new AtomicReference<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger notOwner = new AtomicInteger();
        AtomicInteger virtual = new AtomicInteger();
        int[] entriesPerThread = new int[threads];
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        ThreadFactory factory = VirtualThreads.factory("vt-");
        long grantsBefore = grants();
        for (int i = 0; i < threads; i++) {
            int index = i;
            DistributedLock lock = nodes.get(i % nodes.size()).lock(LOCK);
            factory.newThread(() -> {
                try {
                    Thread me = Thread.currentThread();
                    if (VirtualThreads.isVirtual(me)) {
                        virtual.incrementAndGet();
                    }
                    go.await();
                    lock.withLock(() -> {
                        if (!inside.compareAndSet(null, me)) {
                            overlaps.incrementAndGet();
                        }
                        if (!lock.isHeldByCurrentThread() || lock.getHoldCount() != 1) {
                            notOwner.incrementAndGet();
                        }
                        long fence = lock.fencingToken();
                        if (fence <= guarded.lastFence) {
                            guarded.fenceViolations++;
                        }
                        guarded.lastFence = fence;
                        long seen = guarded.entries;
                        Thread.yield(); // let another virtual thread run here if mutual exclusion failed
                        guarded.entries = seen + 1;
                        entriesPerThread[index]++;
                        inside.compareAndSet(me, null);
                    });
                    if (lock.isHeldByCurrentThread()) {
                        notOwner.incrementAndGet();
                    }
                } catch (Throwable t) {
                    errors.add(Thread.currentThread().getName() + ": " + t);
                } finally {
                    done.countDown();
                }
            }).start();
        }
        long start = System.nanoTime();
        go.countDown();
        boolean finished = await(done);
        result("threads", threads);
        result("virtual", virtual.get());
        result("finished", threads - done.getCount());
        result("elapsedMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        if (!finished) {
            return; // the stuck threads still read and write the fields below
        }
        // done.await() happens-after every thread's unlock, so the plain fields are visible here
        result("entries", guarded.entries);
        result("onceEach", Arrays.stream(entriesPerThread).filter(n -> n == 1).count());
        result("overlaps", overlaps.get());
        result("notOwner", notOwner.get());
        result("fenceViolations", guarded.fenceViolations);
        result("grants", grants() - grantsBefore);
    }

    private void pinControl() {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DistributedLock elsewhere = nodes.get(1).lock(LOCK);
        Thread holder = new Thread(() -> elsewhere.withLock(() -> {
            held.countDown();
            awaitQuietly(release, 300); // long enough for the pinned waiter to be waiting for the cluster
        }), "platform-holder");
        holder.start();
        controlLock = nodes.get(0).lock(LOCK);
        boolean acquired = false;
        try {
            if (!await(held)) {
                throw new IllegalStateException("the holder on node 1 did not get the lock");
            }
            Thread waiter = VirtualThreads.factory("pinned-").newThread(WaitsForTheLockInItsInitializer::touch);
            waiter.start();
            waiter.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            acquired = WaitsForTheLockInItsInitializer.acquired;
            holder.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
        } catch (InterruptedException e) {
            errors.add("pin-control interrupted: " + e);
        } finally {
            release.countDown();
        }
        result("controlAcquired", acquired);
    }

    /** Its initializer takes the control lock: a wait in a class initializer pins the virtual thread. */
    private static final class WaitsForTheLockInItsInitializer {
        static final boolean acquired = controlLock.callWithLock(controlLock::isHeldByCurrentThread);

        static void touch() {
            // initializes the class, nothing else
        }
    }

    private void ownership() {
        DistributedLock lock = nodes.get(0).lock(LOCK);
        DistributedLock otherNode = nodes.get(1).lock(LOCK);
        ThreadFactory factory = VirtualThreads.factory("owner-");
        CountDownLatch ownerHolds = new CountDownLatch(1);
        CountDownLatch ownerMayRelease = new CountDownLatch(1);
        Thread owner = factory.newThread(() -> guarded(() -> {
            lock.lock();
            result("ownerHeld", lock.isHeldByCurrentThread());
            result("ownerHoldCount", lock.getHoldCount());
            result("ownerCarrier", carrierOf(Thread.currentThread()));
            ownerHolds.countDown();
            ownerMayRelease.await();
            result("ownerStillHeld", lock.isHeldByCurrentThread());
            lock.unlock();
            result("ownerReleased", !lock.isHeldByCurrentThread());
        }));
        owner.start();
        Thread other = factory.newThread(() -> guarded(() -> {
            ownerHolds.await();
            result("otherCarrier", carrierOf(Thread.currentThread()));
            result("otherHeld", lock.isHeldByCurrentThread());
            result("otherHoldCount", lock.getHoldCount());
            result("otherUnlock", thrownBy(lock::unlock));
            result("otherFencingToken", thrownBy(lock::fencingToken));
            result("otherTryLock", lock.tryLock(200, TimeUnit.MILLISECONDS));
            result("otherNodeTryLock", otherNode.tryLock(200, TimeUnit.MILLISECONDS));
        }));
        other.start();
        guarded(() -> {
            ownerHolds.await();
            other.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            result("platformHeld", lock.isHeldByCurrentThread());
            result("platformUnlock", thrownBy(lock::unlock));
            ownerMayRelease.countDown();
            owner.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            Thread next = factory.newThread(() -> guarded(() -> {
                boolean got = lock.tryLock(10, TimeUnit.SECONDS);
                result("nextAfterRelease", got && lock.isHeldByCurrentThread());
                if (got) {
                    lock.unlock();
                }
            }));
            next.start();
            next.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
        });
    }

    /** A step that may throw anything; what it throws is reported as an error. */
    private interface Step {
        void run() throws Exception;
    }

    private void guarded(Step step) {
        try {
            step.run();
        } catch (Exception | Error e) {
            errors.add(Thread.currentThread().getName() + ": " + e);
        }
    }

    /** The simple name of what {@code step} threw, or "nothing". */
    private static String thrownBy(Step step) {
        try {
            step.run();
            return "nothing";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    /** The carrier a virtual thread is mounted on, from its {@code toString()}: {@code VirtualThread[#id,name]/state@carrier}. */
    private static String carrierOf(Thread virtualThread) {
        String s = virtualThread.toString();
        int at = s.lastIndexOf('@');
        return at < 0 ? "unknown(" + s + ")" : s.substring(at + 1);
    }

    private long grants() {
        return nodes.stream().mapToLong(n -> n.lock(LOCK).metrics().entries()).sum();
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(DEADLINE_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void awaitQuietly(CountDownLatch latch, long millis) {
        try {
            latch.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void result(String key, Object value) {
        System.out.println("RESULT " + key + "=" + value);
    }
}
