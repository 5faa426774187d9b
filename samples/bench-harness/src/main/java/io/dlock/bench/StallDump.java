package io.dlock.bench;

import java.io.PrintStream;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a run writes when a lock is not granted within the lock timeout: every thread of this JVM at that moment, with
 * its whole stack, the lock it waits for and the monitors and synchronizers it holds. A stall shows there as it is
 * (every node's thread parked while the lock is free, a grant that signalled nobody), where a timeout alone only
 * says that something waited; with a short {@code --lock-timeout} a run becomes a hunt for stalls. Written once (the
 * first thread to time out writes it; the others of the same stall would only repeat it).
 *
 * <p>{@link ThreadInfo#toString()} is not used: it cuts every stack at eight frames.
 */
final class StallDump {

    private final AtomicBoolean written = new AtomicBoolean();
    private final PrintStream out;

    /** @param out where the dump goes */
    StallDump(PrintStream out) {
        this.out = out;
    }

    /** Writes the dump if this run has not written one yet; {@code what} says which wait timed out. */
    void stalled(String what) {
        if (!written.compareAndSet(false, true)) {
            return;
        }
        StringBuilder sb = new StringBuilder(what).append("; every thread of this JVM at that moment:\n");
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            append(t, sb);
        }
        out.print(sb);
        out.flush();
    }

    private static void append(ThreadInfo t, StringBuilder sb) {
        sb.append('"').append(t.getThreadName()).append("\" #").append(t.getThreadId()).append(' ')
                .append(t.getThreadState());
        if (t.getLockName() != null) {
            sb.append(" on ").append(t.getLockName());
        }
        if (t.getLockOwnerName() != null) {
            sb.append(" owned by \"").append(t.getLockOwnerName()).append('"');
        }
        sb.append('\n');
        StackTraceElement[] stack = t.getStackTrace();
        for (int depth = 0; depth < stack.length; depth++) {
            sb.append("    at ").append(stack[depth]).append('\n');
            for (MonitorInfo m : t.getLockedMonitors()) {
                if (m.getLockedStackDepth() == depth) {
                    sb.append("    - locked ").append(m).append('\n');
                }
            }
        }
        for (LockInfo l : t.getLockedSynchronizers()) {
            sb.append("    - holds ").append(l).append('\n');
        }
        sb.append('\n');
    }
}
