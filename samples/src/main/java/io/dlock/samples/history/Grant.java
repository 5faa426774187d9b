package io.dlock.samples.history;

/**
 * A {@code granted} event, for the availability figures.
 *
 * @param at   nanoseconds since the history's first event
 * @param node the node of the client that was granted the lock
 */
record Grant(long at, int node) {
}
