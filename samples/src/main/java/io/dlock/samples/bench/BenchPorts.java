package io.dlock.samples.bench;

import java.util.concurrent.atomic.AtomicInteger;

/** Hands out blocks of TCP ports from {@code --port} on, so that no two clusters of one bench run share a port. */
final class BenchPorts {

    private final AtomicInteger next;

    BenchPorts(int first) {
        next = new AtomicInteger(first);
    }

    /** The first port of a fresh block of {@code count} ports. */
    int reserve(int count) {
        return next.getAndAdd(count);
    }
}
