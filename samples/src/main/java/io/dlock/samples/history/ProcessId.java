package io.dlock.samples.history;

/**
 * A process of a history other than the nemesis: {@code <node>.<incarnation>.<thread>}, three non-negative decimal
 * numbers. Thread 0 is the node's JVM itself; any other thread is a client.
 *
 * @param node        the node number
 * @param incarnation the node's JVM incarnation (a restarted node has a new one)
 * @param thread      0 for the JVM itself, else the client thread
 */
record ProcessId(int node, int incarnation, int thread) {

    /** Whether this is a client (not the node's JVM itself). */
    boolean isClient() {
        return thread != 0;
    }

    /** A key for the node's incarnation, unique per (node, incarnation). */
    long incarnationKey() {
        return ((long) node << 32) | (incarnation & 0xffffffffL);
    }

    /**
     * Parses {@code <node>.<incarnation>.<thread>}.
     *
     * @throws IllegalArgumentException naming {@code text} if it is not three dot-separated non-negative numbers
     */
    static ProcessId parse(String text) {
        int first = text.indexOf('.');
        int second = first < 0 ? -1 : text.indexOf('.', first + 1);
        if (second < 0 || text.indexOf('.', second + 1) >= 0) {
            throw notAProcess(text);
        }
        return new ProcessId(number(text, 0, first), number(text, first + 1, second),
                number(text, second + 1, text.length()));
    }

    private static int number(String text, int from, int to) {
        if (from == to || to - from > 9) {
            throw notAProcess(text);
        }
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw notAProcess(text);
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private static IllegalArgumentException notAProcess(String text) {
        return new IllegalArgumentException("process '" + text + "' is neither '" + HistoryEvent.NEMESIS
                + "' nor <node>.<incarnation>.<thread> (three non-negative numbers, e.g. 3.1.2)");
    }

    @Override
    public String toString() {
        return node + "." + incarnation + "." + thread;
    }
}
