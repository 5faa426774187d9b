package io.dlock.inmemory.sim;

/**
 * Counters for one message class within one run: network messages sent and their encoded bytes,
 * and a hash of the class's simple name that the trace hash folds in (stable across JVMs, because
 * {@link String#hashCode()} is specified).
 */
final class MessageTypeStats {

    final String name;
    final long nameHash;
    long count;
    long bytes;

    MessageTypeStats(Class<?> type) {
        String simple = type.getSimpleName();
        this.name = simple.isEmpty() ? type.getName() : simple;
        this.nameHash = name.hashCode();
    }
}
