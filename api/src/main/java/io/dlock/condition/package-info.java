/**
 * Distributed conditions: {@link io.dlock.condition.ConditionProtocol}, the pure state machine behind
 * {@link io.dlock.DistributedLock#newCondition()}, its messages and their wire format. It runs beside
 * whichever mutual-exclusion algorithm the lock uses.
 */
package io.dlock.condition;
