package io.dlock.jgroups;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Guards on the JGroups stack files, shipped and test-only. JGroups 5.5.7's {@code DELAY} starts a handler
 * thread that polls its queue in an endless loop nothing stops: every channel that had it leaves a thread
 * spinning on a core after {@code close()}, which once starved the 2-core CI machine until the build timed out.
 */
class StackFilesTest {

    private static final Pattern DELAY = Pattern.compile("<\\s*DELAY\\b");

    /** No stack file under src/main/resources or src/test/resources uses JGroups' DELAY protocol. */
    @Test
    void noStackFileUsesDelay() throws IOException {
        List<Path> stacks;
        try (Stream<Path> files = Stream.concat(Files.walk(Path.of("src/main/resources")), Files.walk(Path.of("src/test/resources")))) {
            stacks = files.filter(p -> p.toString().endsWith(".xml")).collect(Collectors.toList());
        }
        assertTrue(stacks.size() >= 5, "expected the shipped and test stack files, found " + stacks);
        for (Path stack : stacks) {
            assertFalse(DELAY.matcher(Files.readString(stack)).find(), stack + " uses DELAY (leaks a spinning thread per channel)");
        }
    }

    /**
     * Every shipped TCP stack sends with TCP_NIO2 and no bundler: the sending thread writes without blocking
     * (NIO2 connects and writes non-blocking), so a member whose link is down blocks no sender. With JGroups' TCP
     * and its single sender thread, that thread waited in connect and the live members stopped hearing each other's
     * heartbeats (found by RealNetworkTest with a link set down).
     */
    @Test
    void everyShippedTcpStackSendsWithoutBlocking() throws IOException {
        for (String name : List.of("default", "tcp", "secure")) {
            String xml = JGroupsTransportFactory.readStack(name);
            assertTrue(xml.contains("<TCP_NIO2 "), name + " does not use TCP_NIO2");
            assertFalse(xml.contains("<TCP "), name + " uses the blocking TCP transport");
            assertTrue(xml.contains("bundler_type=\"no-bundler\""), name + " hands each send to a bundler thread");
            // a lock+unlock is a few small messages: with Nagle's algorithm each may wait for a delayed ACK (~40 ms)
            assertTrue(xml.contains("tcp_nodelay=\"true\""), name + " leaves Nagle's algorithm on (tcp_nodelay)");
        }
    }

    /**
     * The loopback default stack runs regular messages up on the thread that read them (a third less CPU per lock
     * message than a hand-off to a pool thread); the stacks for several hosts hand them to a pool thread, one per
     * sender, so that a view's installation (FD_SOCK2 connects to its neighbour on that thread, up to 1 s) never
     * stops the selector from reading. Each says how to choose the other.
     */
    @Test
    void theLoopbackStackDeliversOnTheReadingThread_andTheNetworkStacksOnAPoolThread() throws IOException {
        assertTrue(JGroupsTransportFactory.readStack("default").contains(
                "message_processing_policy=\"${jgroups.tcp.message_processing_policy:direct}\""),
                "default hands every received message to a pool thread, or offers no way back to JGroups' default");
        for (String name : List.of("tcp", "secure")) {
            String xml = JGroupsTransportFactory.readStack(name);
            assertTrue(xml.contains("message_processing_policy=\"${jgroups.tcp.message_processing_policy:max}\""),
                    name + " runs received messages (and views) up on the selector thread, or offers no way to choose");
        }
    }
}
