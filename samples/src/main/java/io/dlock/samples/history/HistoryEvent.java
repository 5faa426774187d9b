package io.dlock.samples.history;

import java.util.List;
import java.util.Objects;

/**
 * One line of a history: at {@code time} (a {@code System.nanoTime()} reading), {@code process} recorded {@code op}
 * with {@code args}. The {@linkplain io.dlock.samples.history package overview} lists the operations of each kind of
 * process and their arguments.
 *
 * <p>An event is well-formed by construction: the constructor refuses a process id that is neither
 * {@value #NEMESIS} nor {@code <node>.<incarnation>.<thread>}, an operation that kind of process does not record, and
 * arguments of the wrong number or type (a token or value that is not a {@code long}, a target list that is not
 * node numbers). For {@code error} and {@code startfail}, {@code args} holds exactly one element: the free text
 * after the operation, verbatim (possibly empty); for every other operation each argument is one space-free word.
 *
 * @param time    a {@code System.nanoTime()} reading (any {@code long}, negative ones included)
 * @param process the recording process: {@value #NEMESIS}, or {@code <node>.<incarnation>.<thread>}
 *                (thread 0 is the node's JVM itself)
 * @param op      the operation, e.g. {@code granted}
 * @param args    the operation's arguments (copied; unmodifiable)
 */
public record HistoryEvent(long time, String process, String op, List<String> args) {

    /** The process id of the fault injector. */
    public static final String NEMESIS = "nemesis";

    /**
     * Checks and copies the fields.
     *
     * @param time    a {@code System.nanoTime()} reading
     * @param process the recording process
     * @param op      the operation
     * @param args    the operation's arguments
     * @throws NullPointerException     if a field or an argument is null
     * @throws IllegalArgumentException naming the process, operation or argument that is not allowed
     */
    public HistoryEvent {
        Objects.requireNonNull(process, "process");
        Objects.requireNonNull(op, "op");
        args = List.copyOf(args);
        EventSyntax.check(process, op, args);
    }

    /**
     * {@return the argument at {@code index} as a {@code long} (a token, a value, a duration)}
     *
     * @param index the argument's index, from 0
     * @throws IndexOutOfBoundsException if there is no such argument
     * @throws NumberFormatException     if it is not a {@code long} (never for a token, a value or a duration)
     */
    public long longArg(int index) {
        return Long.parseLong(args.get(index));
    }

    /**
     * {@return this event as a history line, {@code <time> <process> <op> [<arg>...]}, as {@link History#parse}
     * reads it}
     */
    public String toLine() {
        StringBuilder line = new StringBuilder().append(time).append(' ').append(process).append(' ').append(op);
        for (String arg : args) {
            if (!arg.isEmpty()) {
                line.append(' ').append(arg);
            }
        }
        return line.toString();
    }
}
