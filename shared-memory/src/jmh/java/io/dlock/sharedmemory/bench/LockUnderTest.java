package io.dlock.sharedmemory.bench;

import io.dlock.sharedmemory.BakeryLock;
import io.dlock.sharedmemory.FilterLock;
import io.dlock.sharedmemory.PetersonLock;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The locks the benchmarks compare, by the name used as the JMH {@code @Param} value. To compare with an older
 * version, build that commit's {@code benchmarks.jar} and run both jars one after the other.
 */
final class LockUnderTest {

    /** A plain counter incremented in the critical section, so that the lock protects something. */
    private int counter;
    private final Runnable incrementUnderLock;

    private LockUnderTest(String name, int threads) {
        switch (name) {
            case "PetersonLock":
                incrementUnderLock = underLock(new PetersonLock());
                break;
            case "FilterLock":
                incrementUnderLock = underLock(new FilterLock(threads));
                break;
            case "BakeryLock":
                incrementUnderLock = underLock(new BakeryLock(threads));
                break;
            case "ReentrantLock":
                incrementUnderLock = underLock(new ReentrantLock());
                break;
            case "ReentrantLock-fair":
                incrementUnderLock = underLock(new ReentrantLock(true));
                break;
            case "synchronized":
                Object monitor = new Object();
                incrementUnderLock = () -> {
                    synchronized (monitor) {
                        counter++;
                    }
                };
                break;
            default:
                throw new IllegalArgumentException("unknown lock " + name);
        }
    }

    /** The lock called {@code name}; filter and bakery locks get capacity {@code threads}. */
    static LockUnderTest create(String name, int threads) {
        return new LockUnderTest(name, threads);
    }

    private Runnable underLock(Lock lock) {
        return () -> {
            lock.lock();
            try {
                counter++;
            } finally {
                lock.unlock();
            }
        };
    }

    int incrementUnderLock() {
        incrementUnderLock.run();
        return counter;
    }
}
