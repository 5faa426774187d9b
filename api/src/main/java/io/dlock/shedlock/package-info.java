/**
 * dlock for ShedLock: {@link io.dlock.shedlock.DlockLockProvider}, a {@code LockProvider} (also
 * {@code ExtensibleLockProvider}, for {@code KeepAliveLockProvider}) on dlock's distributed locks, with
 * {@code lockAtMostFor} as dlock's lease, {@code lockAtLeastFor} kept by an owner-free {@link io.dlock.LockHold}, and
 * the fencing token given to the running task ({@link io.dlock.shedlock.DlockLockProvider#currentFencingToken()}).
 *
 * <p>ShedLock ({@code net.javacrumbs.shedlock:shedlock-core}) is an optional dependency of dlock-api
 * ({@code requires static net.javacrumbs.shedlock.core}): add it to use this package; an application that does not use
 * it loads nothing of ShedLock. docs/frameworks.md shows the set-up.
 */
package io.dlock.shedlock;
