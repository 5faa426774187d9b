package io.dlock.samples;

import io.dlock.samples.history.CheckReport;
import io.dlock.samples.history.History;
import io.dlock.samples.history.HistoryChecker;
import io.dlock.samples.history.StoreFile;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dlock check-history}: judges a recorded history (and, with {@code --store}, the fenced store's file) with
 * {@link HistoryChecker} and prints its summary. Exit code 0 if the history is valid, 1 if the checker found a
 * violation, 2 if a file cannot be read or does not parse (the error names the file, the line and what is wrong).
 */
@Command(name = "check-history", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Judge a recorded lock history: one holder at a time (unless the earlier holder ended lost or "
                + "crashed), fencing tokens in real-time order, the fenced store counting 1, 2, 3 and holding every "
                + "recorded write; availability per fault window.",
            "Exit code 0 if valid, 1 on a violation, 2 if a file cannot be read or parsed."})
final class CheckHistoryCommand extends DlockCommand {

    @Parameters(index = "0", paramLabel = "FILE",
            description = "the history: <timeNanos> <process> <op> [<arg>...] per line")
    Path file;

    @Option(names = "--store", paramLabel = "FILE",
            description = "the fenced store's accepted writes, <token> <counter> [rest] per line (a FencedFile)")
    Path store;

    @Override
    public Integer call() {
        History history = read("FILE", () -> History.read(file));
        CheckReport report = store == null ? HistoryChecker.check(history)
                : HistoryChecker.check(history, read("--store", () -> StoreFile.read(store)));
        print(report.summary());
        return report.valid() ? 0 : 1;
    }

    /** Something read from a file. */
    @FunctionalInterface
    private interface Reader<T> {
        T read() throws IOException;
    }

    /** Reads with {@code reader}; a file that cannot be read or parsed is a usage error of {@code option}. */
    private <T> T read(String option, Reader<T> reader) {
        try {
            return reader.read();
        } catch (IOException e) {
            throw Cli.invalid(spec, option, "cannot read it: " + e);
        } catch (IllegalArgumentException e) {
            throw Cli.invalid(spec, option, e.getMessage());
        }
    }
}
