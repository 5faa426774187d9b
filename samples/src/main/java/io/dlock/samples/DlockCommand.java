package io.dlock.samples;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every {@code dlock} subcommand is: a picocli command whose {@link #call()} returns the exit code, and which
 * prints only through its command line's writers ({@link Cli} says how a command is written).
 */
public abstract class DlockCommand implements Callable<Integer> {

    /** The command as picocli built it: its command line, its writers, its usage. */
    @Spec
    CommandSpec spec;

    /** The command line's output, for a command that prints as it goes; flush it before returning. */
    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Prints {@code text} on the command line's output and flushes it. */
    protected void print(String text) {
        PrintWriter out = out();
        out.print(text);
        out.flush();
    }
}
