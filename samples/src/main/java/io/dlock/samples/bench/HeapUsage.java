package io.dlock.samples.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** The heap this JVM uses once garbage is collected: the least of three readings, each after a {@code System.gc()}. */
final class HeapUsage {

    private static final int COLLECTIONS = 3;
    private static final long SETTLE_MILLIS = 50;

    private HeapUsage() {
    }

    /** Bytes of heap in use after three full collections, {@value #SETTLE_MILLIS} ms apart. */
    static long afterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < COLLECTIONS; i++) {
            System.gc();
            Thread.sleep(SETTLE_MILLIS);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
