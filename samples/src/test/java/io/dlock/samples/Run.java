package io.dlock.samples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs the {@code dlock} command line in this JVM and captures its exit code, standard output and error. */
record Run(int code, String out, String err) {

    static Run dlock(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
            System.setOut(o);
            System.setErr(e);
            CommandLine cli = new CommandLine(new DlockCli());
            cli.setOut(new PrintWriter(o, true));
            cli.setErr(new PrintWriter(e, true));
            code = cli.execute(args);
            o.flush();
            e.flush();
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- out\n" + out + "\n--- err\n" + err;
    }
}
