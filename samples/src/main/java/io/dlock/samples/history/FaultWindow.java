package io.dlock.samples.history;

import java.util.List;

/**
 * A fault window of the nemesis, from its {@code begin} to its {@code end} (or {@code heal}).
 *
 * @param kind     the fault's kind ({@code pause}, {@code isolate}, ...; free text)
 * @param targets  the nodes the fault hit
 * @param majority the nodes expected to keep granting, as {@code begin} listed them, or null if it listed none
 * @param beginAt  nanoseconds since the history's first event
 * @param endAt    nanoseconds since the history's first event, or {@link Hold#NONE} if the window never ended
 */
record FaultWindow(String kind, List<Integer> targets, List<Integer> majority, long beginAt, long endAt) {
}
