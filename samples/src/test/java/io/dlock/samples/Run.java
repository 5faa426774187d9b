package io.dlock.samples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * Runs the {@code dlock} command line in this JVM, set up as {@link DlockCli#main} sets it up ({@link Cli}), and
 * captures its exit code and what it wrote through the command line's writers
 * ({@link CommandLine#setOut}, {@link CommandLine#setErr}). A command must print only there: anything written to
 * {@code System.out} meanwhile fails the run.
 */
public record Run(int code, String out, String err) {

    public static Run dlock(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Cli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        PrintStream savedOut = System.out;
        ByteArrayOutputStream stray = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(stray, true, StandardCharsets.UTF_8));
            code = cli.execute(args);
        } finally {
            System.setOut(savedOut);
        }
        Run run = new Run(code, out.toString(), err.toString());
        if (stray.size() > 0) {
            throw new AssertionError("dlock " + String.join(" ", args) + " wrote to System.out, not to the command "
                    + "line's writer:\n" + stray.toString(StandardCharsets.UTF_8) + "\n" + run);
        }
        return run;
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- out\n" + out + "\n--- err\n" + err;
    }
}
