package io.dlock.samples.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.contract.ChildJvms;
import io.dlock.contract.ChildJvms.Line;
import io.dlock.contract.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link BoundedBufferExample} across three JVMs on JGroups (default TCP stack, 127.0.0.1), started
 * together: two producers put 20 items each into a buffer of three kept in a shared file, a consumer takes
 * all 40. Producers wait on "not full" and the consumer on "not empty", each woken by a signal from another
 * process. Every item must be taken exactly once, and the buffer never holds more than three (the consumer
 * checks it on every take).
 */
@Timeout(180)
class BoundedBufferJvmTest {

    private static final int PER_PRODUCER = 20;
    private static final long LINE_TIMEOUT_S = 60;

    @TempDir
    Path dir;

    /** The two producers and the consumer, numbered by their node ids 1..3. */
    private final ChildJvms children = new ChildJvms();

    @AfterEach
    void destroyAll() throws InterruptedException {
        children.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ricart-agrawala", "suzuki-kasami"})
    void producersAndConsumerInThreeProcesses(String algorithm) throws Exception {
        Path file = dir.resolve("buffer.txt");
        int port = LoopbackPorts.freeBlock(6); // the nodes' PORT and PORT_RANGE 5
        start(1, file, port, algorithm, "produce", "1", Integer.toString(PER_PRODUCER));
        start(2, file, port, algorithm, "produce", "101", Integer.toString(PER_PRODUCER));
        start(3, file, port, algorithm, "consume", Integer.toString(2 * PER_PRODUCER));
        List<Integer> put = new ArrayList<>();
        List<Integer> taken = new ArrayList<>();
        int done = 0;
        while (done < 3) {
            Line l = children.poll(LINE_TIMEOUT_S);
            if (l == null) {
                fail("no output for " + LINE_TIMEOUT_S + " s; put " + put + ", taken " + taken);
            }
            if (l.text().startsWith("PUT ")) {
                put.add(Integer.parseInt(l.text().substring(4)));
            } else if (l.text().startsWith("TOOK ")) {
                taken.add(Integer.parseInt(l.text().substring(5)));
            } else if (l.text().equals("DONE")) {
                done++;
            } else if (!l.text().equals("READY")) {
                fail("node " + l.node() + ": " + l.text());
            }
        }
        children.exitAll();
        List<Integer> expected = new ArrayList<>();
        for (int k = 0; k < PER_PRODUCER; k++) {
            expected.add(1 + k);
        }
        for (int k = 0; k < PER_PRODUCER; k++) {
            expected.add(101 + k);
        }
        assertEquals(expected, put.stream().sorted().toList(), "every item put once");
        assertEquals(expected, taken.stream().sorted().toList(), "every item taken once");
    }

    private void start(int id, Path file, int port, String algorithm, String... role) throws IOException {
        List<String> args = new ArrayList<>(List.of("--jgroups", file.toString(), Integer.toString(id),
                Integer.toString(port), "3"));
        args.addAll(List.of(role));
        args.add(algorithm);
        children.start(id, List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=error"), BoundedBufferExample.class.getName(),
                args);
    }
}
