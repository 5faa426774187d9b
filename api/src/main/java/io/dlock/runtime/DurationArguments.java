package io.dlock.runtime;

import io.dlock.DistributedLock;
import java.time.Duration;
import java.util.Objects;

/**
 * Checks the {@link Duration} arguments of the lock facade's methods and turns them into nanoseconds, with errors
 * that name the parameter, the value and what is allowed.
 */
final class DurationArguments {

    private DurationArguments() {
    }

    /**
     * A wait in nanoseconds: zero or more; a wait too long for a {@code long} of nanoseconds (about 292 years) is
     * {@code Long.MAX_VALUE}, as good as forever.
     *
     * @throws NullPointerException     if {@code wait} is null
     * @throws IllegalArgumentException if {@code wait} is negative
     */
    static long waitNanos(String parameter, Duration wait) {
        Objects.requireNonNull(wait, parameter);
        if (wait.isNegative()) {
            throw new IllegalArgumentException(parameter + " must be zero or positive, got " + wait);
        }
        return wait.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : wait.toNanos();
    }

    /**
     * A lease in nanoseconds: more than zero, at most {@link DistributedLock#MAX_LEASE}.
     *
     * @throws NullPointerException     if {@code lease} is null
     * @throws IllegalArgumentException if {@code lease} is zero, negative or longer than the maximum
     */
    static long leaseNanos(String parameter, Duration lease) {
        Objects.requireNonNull(lease, parameter);
        if (lease.isZero() || lease.isNegative() || lease.compareTo(DistributedLock.MAX_LEASE) > 0) {
            throw new IllegalArgumentException(parameter + " must be more than zero and at most "
                    + DistributedLock.MAX_LEASE + " (DistributedLock.MAX_LEASE), got " + lease);
        }
        return lease.toNanos();
    }
}
