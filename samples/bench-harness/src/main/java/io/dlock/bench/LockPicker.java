package io.dlock.bench;

/**
 * One node's choice of the lock for its next entry in a contended run: always the same lock
 * ({@link BenchHarness#contended(java.util.List, int, BenchHarness.Window)}), or one of many, such as a lock per
 * business key picked at random ({@link BenchHarness#contendedPicking}). The harness calls it from several
 * threads of the same node at once, once per entry, and releases the lock it returned.
 */
@FunctionalInterface
public interface LockPicker {

    /**
     * The lock the calling thread takes for its next entry.
     *
     * @return the lock to take and then release
     * @throws Exception if there is no lock to take; the harness counts a failure and ends the thread's loop
     */
    NodeLock next() throws Exception;
}
