package io.dlock.mutex.common;

import io.dlock.NodeId;
import io.dlock.protocol.RequestStamp;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Requests ordered by priority ({@link RequestStamp}: timestamp, then node id), the earliest first: Lamport's
 * replica of the request queue, a Maekawa arbiter's wait queue. The same as a {@code TreeSet<RequestStamp>}, but
 * the tree is made at the first {@link #add} and dropped when the queue empties: a live lock's queue is empty
 * nearly all the time, and an empty tree costs 64 bytes.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop. Not to be changed while
 * it is being iterated.
 */
public final class RequestQueue implements Iterable<RequestStamp> {

    /** The requests; null while there is none. */
    private TreeSet<RequestStamp> requests;

    /** Adds {@code request}; false if it was there. */
    public boolean add(RequestStamp request) {
        if (requests == null) {
            requests = new TreeSet<>();
        }
        return requests.add(request);
    }

    /** Removes {@code request}; false if it was not there. */
    public boolean remove(RequestStamp request) {
        boolean removed = requests != null && requests.remove(request);
        dropIfEmpty();
        return removed;
    }

    /** Removes every request that {@code filter} accepts; true if any was removed. */
    public boolean removeIf(Predicate<RequestStamp> filter) {
        boolean removed = requests != null && requests.removeIf(filter);
        dropIfEmpty();
        return removed;
    }

    /** Whether a request of {@code node} is queued. */
    public boolean hasRequestOf(NodeId node) {
        if (requests != null) {
            for (RequestStamp r : requests) {
                if (r.node().equals(node)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The earliest request.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    public RequestStamp first() {
        if (requests == null) {
            throw new NoSuchElementException();
        }
        return requests.first();
    }

    /** Removes and returns the earliest request, or null if the queue is empty. */
    public RequestStamp pollFirst() {
        if (requests == null) {
            return null;
        }
        RequestStamp first = requests.pollFirst();
        dropIfEmpty();
        return first;
    }

    /** Removes every request. */
    public void clear() {
        requests = null;
    }

    public boolean isEmpty() {
        return requests == null;
    }

    /** The requests, earliest first. */
    @Override
    public Iterator<RequestStamp> iterator() {
        return requests == null ? Collections.emptyIterator() : requests.iterator();
    }

    private void dropIfEmpty() {
        if (requests != null && requests.isEmpty()) {
            requests = null;
        }
    }

    @Override
    public String toString() {
        return requests == null ? "[]" : requests.toString();
    }
}
