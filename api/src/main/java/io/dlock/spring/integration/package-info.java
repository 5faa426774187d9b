/**
 * dlock for Spring Integration: {@link io.dlock.spring.integration.DlockLockRegistry}, a {@code LockRegistry} (also
 * {@code ExpirableLockRegistry} and {@code RenewableLockRegistry}) whose locks ({@link
 * io.dlock.spring.integration.DlockRegistryLock}, Spring's {@code DistributedLock}) are dlock's distributed locks, with
 * a TTL as dlock's lease and the fencing token at hand; it works under Spring's {@code LockRegistryLeaderInitiator}.
 * {@link io.dlock.spring.integration.DlockLeaderInitiator} is a leader initiator driven by dlock's own
 * {@link io.dlock.LeaderElection}, with Spring's {@code Candidate} and leader events, and no lock to poll.
 *
 * <p>Spring Integration ({@code org.springframework.integration:spring-integration-core}) and Spring's context are
 * optional dependencies of dlock-api ({@code requires static spring.integration.core, spring.context}): add them to use
 * this package; an application that does not use it loads nothing of Spring. docs/frameworks.md shows the set-up.
 */
package io.dlock.spring.integration;
