package io.dlock.runtime;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The lost holds of one lock on one node that their owners (threads or {@link RuntimeHold}s) have not released
 * fully yet. A hold lost because its node fell out of the primary component (or its epoch lease ran out) still
 * <em>keeps the grant</em>: the lock goes back only with its owner's last release, and no other local owner takes
 * it meanwhile, so there is at most one such hold. A hold whose own lease ran out gave the grant back at once: its
 * owner's releases only count it down, and there may be several (each owner of them must release it).
 *
 * <p>Guarded by the owning {@link LocalLockState}'s mutex. Most locks never lose a hold, so the map is made at the
 * first loss only.
 */
final class LostHolds {

    /** One owner's lost hold. */
    static final class Entry {
        /** Holds (reentrant acquisitions) not released yet. */
        int holds;
        final long fencingToken;
        /** Why it was lost, for its owner's exceptions ("when ..."). */
        final String cause;
        /** Whether the grant goes back only with the owner's last release. */
        final boolean keepsGrant;

        Entry(int holds, long fencingToken, String cause, boolean keepsGrant) {
            this.holds = holds;
            this.fencingToken = fencingToken;
            this.cause = cause;
            this.keepsGrant = keepsGrant;
        }
    }

    /** By owner; null until the first loss. */
    private Map<Object, Entry> entries;

    /** {@code owner}'s lost hold, or null. */
    Entry get(Object owner) {
        return entries == null ? null : entries.get(owner);
    }

    /** Records that {@code owner} lost a hold of {@code holds} acquisitions. */
    void add(Object owner, int holds, long fencingToken, String cause, boolean keepsGrant) {
        if (entries == null) {
            entries = new IdentityHashMap<>(4);
        }
        entries.put(owner, new Entry(holds, fencingToken, cause, keepsGrant));
    }

    /** Counts one release of {@code owner}'s {@code entry} down; the last one forgets it. Whether it was the last. */
    boolean countDown(Object owner, Entry entry) {
        if (--entry.holds > 0) {
            return false;
        }
        entries.remove(owner);
        return true;
    }

    boolean isEmpty() {
        return entries == null || entries.isEmpty();
    }

    /** The node closed: every hold is gone. */
    void clear() {
        entries = null;
    }
}
