package io.dlock.shedlock;

import io.dlock.LockHold;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalLong;

/**
 * The locks a thread took through {@link DlockLockProvider} for its running tasks, innermost last: what
 * {@link DlockLockProvider#currentFencingToken()} reads. A lock unlocked by another thread than the one that took it is
 * marked ended and dropped from its taker's list the next time that thread looks.
 */
final class TaskLocks {

    private static final ThreadLocal<Deque<Entry>> BY_THREAD = ThreadLocal.withInitial(ArrayDeque::new);

    private TaskLocks() {
    }

    /**
     * The lock of one task: its hold and the hold's fencing token, read when it was taken (it stays readable after the
     * hold is lost).
     */
    static final class Entry {
        private final LockHold hold;
        private final long token;
        private volatile boolean ended;

        Entry(LockHold hold, long token) {
            this.hold = hold;
            this.token = token;
        }

        LockHold hold() {
            return hold;
        }

        long token() {
            return token;
        }
    }

    /** The calling thread takes {@code hold} for a task. */
    static Entry started(LockHold hold) {
        Entry entry = new Entry(hold, hold.fencingToken());
        BY_THREAD.get().addLast(entry);
        return entry;
    }

    /** {@code entry}'s task ended (its lock was unlocked, on any thread). */
    static void ended(Entry entry) {
        entry.ended = true;
        Deque<Entry> mine = BY_THREAD.get();
        mine.remove(entry);
        if (mine.isEmpty()) {
            BY_THREAD.remove();
        }
    }

    /** The fencing token of the calling thread's innermost running task's lock, if any. */
    static OptionalLong currentToken() {
        Deque<Entry> mine = BY_THREAD.get();
        while (!mine.isEmpty() && mine.peekLast().ended) {
            mine.removeLast();
        }
        if (mine.isEmpty()) {
            BY_THREAD.remove();
            return OptionalLong.empty();
        }
        return OptionalLong.of(mine.peekLast().token);
    }
}
