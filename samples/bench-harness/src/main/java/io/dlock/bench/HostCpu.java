package io.dlock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The host's CPU time as its kernel counts it (the first line of {@code /proc/stat}, in clock ticks, every CPU
 * together): all of it, and the part stolen, the time a virtual CPU had work but the hypervisor ran another guest.
 * On a shared virtual machine the stolen share of a measured window says how much of a slow figure was a
 * neighbour's doing rather than the measured system's ({@link Measurement#stolenShare}).
 *
 * <p>A reading is a point in time ({@link #now}); {@link #minus} of two readings is the time between them, and
 * {@link #plus} adds such spans up (the slices of an interleaved run). An unknown reading (no {@code /proc/stat}, as
 * off Linux) has {@code total} -1, and everything computed from it is unknown too.
 *
 * @param total  ticks of every state (user, nice, system, idle, iowait, irq, softirq, steal); -1 if unknown
 * @param stolen ticks stolen, among {@code total}
 */
public record HostCpu(long total, long stolen) {

    /** No time at all: where a sum of spans starts. */
    public static final HostCpu ZERO = new HostCpu(0, 0);

    /** An unknown reading or span. */
    public static final HostCpu UNKNOWN = new HostCpu(-1, -1);

    private static final Path PROC_STAT = Path.of("/proc/stat");

    /** The host's CPU time so far; {@link #UNKNOWN} where {@code /proc/stat} cannot be read or parsed. */
    public static HostCpu now() {
        try {
            List<String> lines = Files.readAllLines(PROC_STAT);
            return lines.isEmpty() ? UNKNOWN : parse(lines.get(0));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /**
     * The reading of {@code /proc/stat}'s first line ({@code cpu user nice system idle iowait irq softirq steal ...});
     * {@link #UNKNOWN} if it is not such a line. guest and guest_nice are left out: the kernel counts them in user and
     * nice already.
     */
    static HostCpu parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 9 || !f[0].equals("cpu")) {
            return UNKNOWN;
        }
        long total = 0;
        for (int i = 1; i <= 8; i++) {
            total += Long.parseLong(f[i]);
        }
        return new HostCpu(total, Long.parseLong(f[8]));
    }

    /** Whether this reading or span is known. */
    public boolean known() {
        return total >= 0;
    }

    /** The span from {@code earlier} to this reading; unknown if either is. */
    public HostCpu minus(HostCpu earlier) {
        return known() && earlier.known() ? new HostCpu(total - earlier.total, stolen - earlier.stolen) : UNKNOWN;
    }

    /** This span and {@code other} together; unknown if either is. */
    public HostCpu plus(HostCpu other) {
        return known() && other.known() ? new HostCpu(total + other.total, stolen + other.stolen) : UNKNOWN;
    }

    /** The share of this span that was stolen, 0..1; NaN if it is unknown or empty. */
    public double stolenShare() {
        return known() && total > 0 ? (double) stolen / total : Double.NaN;
    }
}
