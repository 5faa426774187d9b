package io.dlock.samples.virtualthreads;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of {@code jdk.VirtualThreadPinned} in this JVM: every time a virtual thread blocked
 * while pinned to its carrier, with no duration threshold (the default setting records only pins of
 * 20 ms or more) and with the stack. Started before the work, read back after it with
 * {@link RecordingFile}; the file stays on disk for {@code jfr print --events jdk.VirtualThreadPinned}.
 */
final class PinRecorder implements AutoCloseable {

    static final String PINNED = "jdk.VirtualThreadPinned";

    private final Recording recording = new Recording();

    /** Starts recording pins. */
    PinRecorder() {
        recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
        recording.setName("dlock-virtual-thread-pins");
        recording.start();
    }

    /**
     * Stops recording, writes the recording to {@code file} and returns one line per pin: the blocking
     * operation, why the thread was pinned (JDK 24+), the virtual thread, and its stack, innermost first.
     */
    List<String> stopAndRead(Path file) throws IOException {
        recording.stop();
        recording.dump(file);
        List<String> pins = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (event.getEventType().getName().equals(PINNED)) {
                pins.add(describe(event));
            }
        }
        return pins;
    }

    private static String describe(RecordedEvent event) {
        RecordedThread thread = event.getThread();
        String stack = event.getStackTrace() == null ? "(no stack)" : event.getStackTrace().getFrames().stream()
                .map(PinRecorder::frame).collect(Collectors.joining(" <- "));
        return "operation=" + field(event, "blockingOperation") + " reason=" + field(event, "pinnedReason")
                + " thread=" + (thread == null ? "?" : thread.getJavaName()) + " duration=" + event.getDuration()
                + " stack=" + stack;
    }

    private static String field(RecordedEvent event, String name) {
        if (!event.hasField(name)) {
            return "(not recorded before JDK 24)";
        }
        Object value = event.getValue(name); // typed Object: String.valueOf(char[]) would be chosen otherwise
        return String.valueOf(value);
    }

    private static String frame(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":" + frame.getLineNumber();
    }

    @Override
    public void close() {
        recording.close();
    }
}
