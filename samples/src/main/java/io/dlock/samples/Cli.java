package io.dlock.samples;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The {@code dlock} command line, set up once: every command runs through {@link #commandLine()}, so every
 * command answers a usage error the same way.
 *
 * <h2>How a command is written</h2>
 * <ul>
 *   <li>It extends {@link DlockCommand} and is listed in {@link DlockCli}'s subcommands; {@code call()} returns the
 *       exit code (0 ok, 1 the run found a failure).</li>
 *   <li>An option has the type it means, converted by picocli: an enum or a {@link ChoiceConverter} for a fixed
 *       set of names ({@link OutputFormat}, {@link MessageDelay}, {@link SweepWorkload}), {@link NodeCounts} for
 *       sets of N, {@link MutexVariantConverter} for mutual-exclusion algorithms. Options several commands share are mixins:
 *       {@link FormatOption}, {@link SeedOption}, {@link MutexAlgorithmsOption}, {@link MutexRunOptions},
 *       {@link SweepNodesOption}.</li>
 *   <li>A value that converts but is out of range is refused first thing in {@code call()}, with
 *       {@link #checkWithin}, {@link #checkAtLeast} or {@link #invalid}: a {@link ParameterException}, like
 *       picocli's own.</li>
 *   <li>Output goes through {@link DlockCommand#print} or {@link DlockCommand#out()} (the command line's writer),
 *       never to {@code System.out}, so a caller (a test) that sets the command line's writers captures it.</li>
 * </ul>
 *
 * <h2>The error path</h2>
 * A {@link ParameterException}, from picocli's parser, a converter or a command's check, prints one line naming
 * the option, the bad value and what is allowed, then the command's usage (or, for an unknown command, the
 * nearest commands), on the command line's error writer, and exits with 2. Other exceptions are picocli's default:
 * a stack trace and exit code 1.
 */
public final class Cli {

    private Cli() {
    }

    /**
     * The {@code dlock} command line with its subcommands, its execution strategy and the one usage-error handler.
     * The strategy is picocli's {@link CommandLine.RunLast} behind a lambda: picocli's own default instance
     * remembers {@code System.out} as it was when the command line was built, and {@code execute} would
     * replace the writer a caller set with {@link CommandLine#setOut} by that stream whenever {@code System.out}
     * has changed since (picocli's compatibility with its pre-4.0 handlers).
     */
    static CommandLine commandLine() {
        return new CommandLine(new DlockCli())
                .setExecutionStrategy(parseResult -> new CommandLine.RunLast().execute(parseResult))
                .setParameterExceptionHandler(Cli::usageError);
    }

    /** The one answer to a usage error: the message, the usage (or suggestions), exit code 2. */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(e.getMessage());
        if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
            cmd.usage(err);
        }
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** A usage error of {@code spec}'s command about {@code option}: "Invalid value for option '--x': why". */
    public static ParameterException invalid(CommandSpec spec, String option, String why) {
        return new ParameterException(spec.commandLine(), "Invalid value for option '" + option + "': " + why);
    }

    /** Refuses {@code value} unless it lies in {@code min..max}, naming the option, the value and the range. */
    public static void checkWithin(CommandSpec spec, String option, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw invalid(spec, option, number(value) + " is outside " + number(min) + ".." + number(max));
        }
    }

    /** Refuses {@code value} unless it is at least {@code min}, naming the option and the value. */
    public static void checkAtLeast(CommandSpec spec, String option, long value, long min) {
        if (value < min) {
            throw invalid(spec, option, value + " is less than " + min);
        }
    }

    /** {@code 3} for 3.0, {@code 0.5} for 0.5: values as they were written. */
    public static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
