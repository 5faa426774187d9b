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
     * operation, why the thread was pinned (JDK 24+), the virtual thread, and its stack, innermost first. Pins
     * inside the JDK's class loading and call-site linking are left out ({@link #inJdkLinking}).
     */
    List<String> stopAndRead(Path file) throws IOException {
        recording.stop();
        recording.dump(file);
        List<String> pins = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (event.getEventType().getName().equals(PINNED) && !inJdkLinking(event)) {
                pins.add(describe(event));
            }
        }
        return pins;
    }

    /**
     * Whether the pin happened inside the JDK's class loading or its linking of a call site (the first run of a
     * lambda or string concatenation): a virtual thread that contends there for a monitor of the JDK's (a class
     * loader's lock; the reference queue of {@code java.lang.invoke}'s caches) cannot unmount, and JDK 24+ records it
     * as "Contended monitor enter", "Freeze or preempt failed". It depends only on which thread loads a class or
     * links a call site first, never on dlock, so it is not counted.
     */
    private static boolean inJdkLinking(RecordedEvent event) {
        if (event.getStackTrace() == null || event.getStackTrace().getFrames().isEmpty()) {
            return false;
        }
        List<RecordedFrame> frames = event.getStackTrace().getFrames();
        String top = frames.get(0).getMethod().getType().getName();
        return top.startsWith("jdk.internal.loader.") || top.equals("java.lang.ClassLoader")
                || frames.stream().anyMatch(f -> f.getMethod().getType().getName()
                        .equals("java.lang.invoke.MethodHandleNatives") && f.getMethod().getName().startsWith("link"));
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
