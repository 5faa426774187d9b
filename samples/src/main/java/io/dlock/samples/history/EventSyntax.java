package io.dlock.samples.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The one place that knows which operations each kind of process may record and what their arguments are (the table
 * in the {@linkplain io.dlock.samples.history package overview}). {@link HistoryEvent}'s constructor calls
 * {@link #check}, so every event a checker sees is well-formed.
 */
final class EventSyntax {

    private EventSyntax() {
    }

    /** Whether {@code op} takes the rest of its line as one free-text argument. */
    static boolean isTextOp(String op) {
        return op.equals("error") || op.equals("startfail");
    }

    /**
     * Checks that {@code process} may record {@code op} with {@code args}.
     *
     * @throws IllegalArgumentException naming the process, the operation or the argument that is wrong
     */
    static void check(String process, String op, List<String> args) {
        if (process.isEmpty() || process.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("process '" + process + "' must be a non-empty id without spaces");
        }
        for (String arg : args) {
            if (arg.indexOf('\n') >= 0 || arg.indexOf('\r') >= 0) {
                throw new IllegalArgumentException(op + ": an argument holds a line break: '" + arg + "'");
            }
            if (!isTextOp(op) && (arg.isEmpty() || arg.indexOf(' ') >= 0)) {
                throw new IllegalArgumentException(op + ": argument '" + arg
                        + "' is empty or holds a space (fields are separated by single spaces)");
            }
        }
        if (process.equals(HistoryEvent.NEMESIS)) {
            checkNemesis(op, args);
        } else if (ProcessId.parse(process).isClient()) {
            checkClient(op, args);
        } else {
            checkNodeJvm(op, args);
        }
    }

    private static void checkClient(String op, List<String> args) {
        switch (op) {
            case "acquire":
            case "refused":
            case "release":
            case "released":
                arity(op, args, 0, "");
                break;
            case "granted":
            case "lost":
            case "told":
            case "stale":
                arity(op, args, 1, " <token>");
                number(op, "token", args.get(0));
                break;
            case "write":
                arity(op, args, 2, " <token> <value>");
                number(op, "token", args.get(0));
                number(op, "value", args.get(1));
                break;
            case "error":
                arity(op, args, 1, " <text>");
                break;
            default:
                throw new IllegalArgumentException("unknown client operation '" + op
                        + "' (allowed: acquire, granted, refused, release, released, lost, told, write, stale, error)");
        }
    }

    private static void checkNodeJvm(String op, List<String> args) {
        switch (op) {
            case "started":
                arity(op, args, 1, " <millisToStart>");
                number(op, "millisToStart", args.get(0));
                break;
            case "told":
                arity(op, args, 1, " <token>");
                number(op, "token", args.get(0));
                break;
            case "view":
                arity(op, args, 3, " <epoch> <size> <primary>");
                number(op, "epoch", args.get(0));
                number(op, "size", args.get(1));
                break;
            case "startfail":
            case "error":
                arity(op, args, 1, " <text>");
                break;
            default:
                throw new IllegalArgumentException("unknown operation '" + op
                        + "' of a node's JVM (thread 0) (allowed: started, startfail, view, told, error)");
        }
    }

    private static void checkNemesis(String op, List<String> args) {
        switch (op) {
            case "begin":
            case "end":
            case "heal":
                if (args.size() != 2 && !(args.size() == 4 && args.get(2).equals("majority"))) {
                    throw new IllegalArgumentException(op + " takes <kind> <n1,n2,...|-> [majority <m1,m2,...|->], got "
                            + args.size() + " argument(s): " + args);
                }
                nodes(args.get(1));
                if (args.size() == 4) {
                    nodes(args.get(3));
                }
                break;
            case "crash":
                arity(op, args, 1, " <node>");
                if (nodes(args.get(0)).size() != 1) {
                    throw new IllegalArgumentException("crash takes one node number, got '" + args.get(0) + "'");
                }
                break;
            case "error":
                arity(op, args, 1, " <text>");
                break;
            default:
                throw new IllegalArgumentException("unknown nemesis operation '" + op
                        + "' (allowed: begin, end, heal, crash, error)");
        }
    }

    /**
     * The node numbers of a nemesis target list: {@code -} for none, else comma-separated non-negative numbers.
     *
     * @throws IllegalArgumentException naming {@code text} if it is neither
     */
    static List<Integer> nodes(String text) {
        if (text.equals("-")) {
            return List.of();
        }
        List<Integer> nodes = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            try {
                int n = Integer.parseInt(part);
                if (n < 0 || part.charAt(0) == '+') {
                    throw new NumberFormatException();
                }
                nodes.add(n);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("node list '" + text
                        + "' is neither '-' nor comma-separated node numbers (e.g. 1,3): '" + part + "' is not one", e);
            }
        }
        return Collections.unmodifiableList(nodes);
    }

    private static void arity(String op, List<String> args, int n, String usage) {
        if (args.size() != n) {
            throw new IllegalArgumentException(op + " takes " + n + " argument(s) (" + op + usage + "), got "
                    + args.size() + ": " + args);
        }
    }

    private static void number(String op, String what, String text) {
        try {
            Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(op + ": " + what + " '" + text + "' is not a whole number (a long)", e);
        }
    }
}
