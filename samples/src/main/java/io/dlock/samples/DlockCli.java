package io.dlock.samples;

import io.dlock.samples.bench.BenchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code dlock} command line ({@code java -jar samples/target/dlock.jar}). With no arguments it
 * prints its usage. {@link Cli} sets it up; its Javadoc says how a command is written.
 */
@Command(name = "dlock", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "Distributed mutual exclusion and leader election: run, compare and measure the algorithms; "
                + "judge recorded lock histories.",
        subcommands = {CompareCommand.class, SweepCommand.class, ReportCommand.class, TraceCommand.class,
                ElectCommand.class, NodeCommand.class, BenchCommand.class, CheckHistoryCommand.class})
public final class DlockCli implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Entry point; exits with the command's exit code. */
    public static void main(String[] args) {
        System.exit(Cli.commandLine().execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
        spec.commandLine().getOut().flush();
    }
}
