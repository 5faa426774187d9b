package io.dlock.samples.virtualthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dlock.MutexAlgorithm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * dlock locks taken by virtual threads, on a Java 21+ JDK while the build stays on Java 17:
 * each test forks a child JVM from the Temurin 25 JDK ({@code /usr/lib/jvm/temurin-25-jdk-amd64}, or
 * {@code -Ddlock.test.jdk25=<home>}) with this test class path, running {@link VirtualThreadScenarios},
 * which reaches {@code Thread.ofVirtual()} by reflection ({@link VirtualThreads}), so nothing is compiled
 * at run time. Skipped, with a message, when that JDK is not installed.
 *
 * <p>The child's virtual-thread scheduler has <b>one carrier thread</b> and may not add more
 * ({@code jdk.virtualThreadScheduler.parallelism=1}, {@code maxPoolSize=1}): a virtual thread that stayed
 * pinned to it while waiting for the cluster would stop every other virtual thread, the holder's unlock
 * included, and the run would hang until its deadline. JFR's {@code jdk.VirtualThreadPinned} (recorded with
 * no threshold, {@link PinRecorder}) shows any shorter pin too, and the control case shows that a pinned
 * wait for the lock is seen. The recordings stay in {@code target/virtual-threads/} for
 * {@code jfr print --events jdk.VirtualThreadPinned <file>}.
 *
 * <p>Each child is bounded: it stops waiting for its threads after 120 s and reports how many finished; the
 * test destroys it if it has not exited after {@value #CHILD_TIMEOUT_S} s.
 */
class VirtualThreadLockTest {

    private static final Path JDK = Path.of(System.getProperty("dlock.test.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64"));
    private static final Path OUT = Path.of("target", "virtual-threads");
    private static final long CHILD_TIMEOUT_S = 240;
    private static final int THREADS = 10_000;

    @BeforeEach
    void requireJava21OrLater() throws IOException {
        assumeTrue(Files.isExecutable(JDK.resolve("bin/java")), "virtual-thread tests skipped: no JDK at " + JDK
                + " (install Temurin 25 there, or point -Ddlock.test.jdk25 at a Java 21+ JDK)");
        Files.createDirectories(OUT);
    }

    /**
     * 10 000 virtual threads on three nodes each take the lock exactly once: never two inside at once, each
     * the owner while inside and not after, fencing tokens increasing, no lost update, every entry a grant
     * of the cluster, no deadlock; and no virtual thread was pinned to the single carrier meanwhile.
     */
    @ParameterizedTest
    @EnumSource(value = MutexAlgorithm.class, names = {"RICART_AGRAWALA", "SUZUKI_KASAMI", "CENTRALIZED"})
    void tenThousandVirtualThreads_eachLockOnce_oneAtATime_unpinned(MutexAlgorithm algorithm) throws Exception {
        Child child = Child.run("contend", algorithm, THREADS);
        assertEquals(THREADS, child.number("virtual"), child.explain("not every thread was virtual"));
        assertEquals(THREADS, child.number("finished"),
                child.explain("virtual threads still waiting after 120 s: deadlock (or a pinned carrier)"));
        assertEquals(THREADS, child.number("onceEach"), child.explain("not every thread entered exactly once"));
        assertEquals(THREADS, child.number("entries"), child.explain("lost updates to the counter under the lock"));
        assertEquals(0, child.number("overlaps"), child.explain("two threads inside at once"));
        assertEquals(0, child.number("notOwner"), child.explain("ownership wrong inside or after the action"));
        assertEquals(0, child.number("fenceViolations"), child.explain("a fencing token did not increase"));
        assertEquals(THREADS, child.number("grants"), child.explain("entries without a grant of the cluster"));
        child.assertNoErrors();
        assertEquals(0, child.number("pins"), child.explain("virtual threads were pinned to their carrier"));
    }

    /**
     * The control: a virtual thread that waits for the lock inside a class initializer, where the JVM pins it,
     * is recorded as pinned, with the runtime's wait on its stack. Without this, "0 pins" could mean "not looking".
     */
    @Test
    void pinnedWaitForTheLock_isSeen() throws Exception {
        Child child = Child.run("pin-control", MutexAlgorithm.RICART_AGRAWALA, 1);
        assertEquals("true", child.value("controlAcquired"), child.explain("the control waiter did not get the lock"));
        child.assertNoErrors();
        assertTrue(child.number("pins") >= 1, child.explain("the deliberate pin was not recorded"));
        assertTrue(child.pins().stream().anyMatch(pin -> pin.contains("io.dlock.runtime.LocalLockState.acquire")
                        && pin.contains("<clinit>")),
                child.explain("no recorded pin shows the wait for the lock inside the class initializer"));
    }

    /**
     * Ownership belongs to the virtual thread that locked, not to its carrier: another virtual thread on the
     * same carrier, and a platform thread, do not hold it, get IllegalMonitorStateException from unlock() and
     * fencingToken(), and cannot take it while it is held; the owner can unlock it, and then others can take it.
     */
    @Test
    void ownershipStaysWithTheVirtualThreadThatLocked() throws Exception {
        Child child = Child.run("ownership", MutexAlgorithm.RICART_AGRAWALA, 2);
        child.assertNoErrors();
        assertEquals("true", child.value("ownerHeld"), child.explain("owner"));
        assertEquals("1", child.value("ownerHoldCount"), child.explain("owner's hold count"));
        assertEquals(child.value("ownerCarrier"), child.value("otherCarrier"),
                child.explain("the two virtual threads should share the single carrier"));
        assertEquals("false", child.value("otherHeld"), child.explain("other virtual thread"));
        assertEquals("0", child.value("otherHoldCount"), child.explain("other virtual thread's hold count"));
        assertEquals("IllegalMonitorStateException", child.value("otherUnlock"), child.explain("other's unlock()"));
        assertEquals("IllegalMonitorStateException", child.value("otherFencingToken"),
                child.explain("other's fencingToken()"));
        assertEquals("false", child.value("otherTryLock"), child.explain("other's tryLock while held"));
        assertEquals("false", child.value("otherNodeTryLock"), child.explain("another node's tryLock while held"));
        assertEquals("false", child.value("platformHeld"), child.explain("platform thread"));
        assertEquals("IllegalMonitorStateException", child.value("platformUnlock"),
                child.explain("platform thread's unlock()"));
        assertEquals("true", child.value("ownerStillHeld"), child.explain("owner after the others tried"));
        assertEquals("true", child.value("ownerReleased"), child.explain("owner's unlock()"));
        assertEquals("true", child.value("nextAfterRelease"), child.explain("next virtual thread after the release"));
        assertEquals(0, child.number("pins"), child.explain("virtual threads were pinned to their carrier"));
    }

    /** One finished child JVM: its output, and the RESULT and PIN lines parsed from it. */
    private record Child(String scenario, String output, Map<String, String> results, List<String> pins) {

        static Child run(String scenario, MutexAlgorithm algorithm, int threads) throws Exception {
            String stem = scenario + "-" + algorithm.configName();
            Path log = OUT.resolve(stem + ".log");
            List<String> cmd = List.of(JDK.resolve("bin/java").toString(),
                    "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1",
                    "-cp", System.getProperty("java.class.path"), VirtualThreadScenarios.class.getName(),
                    scenario, OUT.resolve(stem + ".jfr").toString(), algorithm.configName(), Integer.toString(threads));
            Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                if (!process.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS)) {
                    fail("child JVM '" + stem + "' still running after " + CHILD_TIMEOUT_S + " s, destroyed; output:\n"
                            + Files.readString(log, StandardCharsets.UTF_8));
                }
            } finally {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                fail("child JVM '" + stem + "' exited with " + process.exitValue() + "; output:\n" + output);
            }
            Map<String, String> results = new HashMap<>();
            List<String> pins = new ArrayList<>();
            for (String line : output.split("\n")) {
                if (line.startsWith("RESULT ")) {
                    int eq = line.indexOf('=');
                    results.put(line.substring("RESULT ".length(), eq), line.substring(eq + 1));
                } else if (line.startsWith("PIN ")) {
                    pins.add(line.substring("PIN ".length()));
                }
            }
            return new Child(stem, output, results, pins);
        }

        String value(String key) {
            String value = results.get(key);
            if (value == null) {
                fail(explain("no RESULT " + key));
            }
            return value;
        }

        long number(String key) {
            return Long.parseLong(value(key));
        }

        void assertNoErrors() {
            assertEquals(0, number("errors"), explain("unexpected exceptions in the child"));
        }

        /** {@code what}, then the child's results and pins (or its whole output when it is short). */
        String explain(String what) {
            String detail = output.length() < 20_000 ? output
                    : results + "\n" + pins.stream().limit(20).collect(Collectors.joining("\n"));
            return what + " (child '" + scenario + "'):\n" + detail;
        }
    }
}
