package io.dlock.samples;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on the terminal (me.tongfei:progressbar, drawn on standard error), or nothing when
 * the output is not a terminal or is JSON, so that pipes and files get only the results.
 */
final class Progress implements AutoCloseable {

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    /** A bar of {@code total} steps if {@code wanted} and the JVM has a console; otherwise a silent one. */
    static Progress of(String task, long total, boolean wanted) {
        if (!wanted || System.console() == null) {
            return new Progress(null);
        }
        return new Progress(new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).continuousUpdate().build());
    }

    /** Shows what runs now. */
    void doing(String what) {
        if (bar != null) {
            bar.setExtraMessage(what);
        }
    }

    /** One step done. */
    void step() {
        if (bar != null) {
            bar.step();
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
