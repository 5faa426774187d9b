package io.dlock.mutex.maekawa;

import io.dlock.mutex.common.NodeLongMap;
import io.dlock.mutex.common.NodeSet;

/**
 * A Maekawa requester's state for its current request in the current epoch (docs/algorithms.md A10 rules 3-7):
 * the locks its arbiters gave it, the arbiters that said FAILED, those it yielded to, and the INQUIREs it has not
 * answered yet. {@link Maekawa} makes one when it requests (and anew at a view change while it requests: the old
 * epoch's locks are gone) and drops it when it releases, so an idle lock keeps none.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
final class RequesterRound {

    /** Arbiter -> grant number of the lock it gave for the current request. */
    final NodeLongMap locks = new NodeLongMap();
    /** Arbiters that said FAILED (rule 4) and have not locked for us since. */
    final NodeSet failedFrom = new NodeSet();
    /** Arbiters we relinquished a lock to (rule 5) and that have not locked for us again. */
    final NodeSet yieldedTo = new NodeSet();
    /** Arbiters whose INQUIRE we deferred (rule 5). */
    final NodeSet pendingInquire = new NodeSet();

    @Override
    public String toString() {
        return "locks=" + locks.toSortedMap().keySet() + " failed=" + failedFrom + " yielded=" + yieldedTo
                + " pendingInquire=" + pendingInquire;
    }
}
