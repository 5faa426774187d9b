package io.dlock.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.bench.PeerProtocol;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bench's side of the baselines jar's {@code --serve} protocol, against small shell programs that speak it: a row
 * per command, the skip line of a peer that cannot run, a refused command, a jar that ends or stays silent. Every wait
 * is bounded.
 */
@Timeout(60)
class PeerSessionTest {

    /** Answers each command with a contended row whose threads are the command's last word; stops at quit. */
    private static final String SERVER = "echo 'a banner line'; echo '# ready'; "
            + "while read -r cmd; do case \"$cmd\" in quit) exit 0;; "
            + "bogus) echo \"# refused '$cmd': expected uncontended, contended T, per-key K T or quit\";; "
            + "*) t=${cmd##* }; echo \"{\\\"system\\\": \\\"fake\\\", \\\"transport\\\": \\\"sh\\\", "
            + "\\\"algorithm\\\": \\\"echo\\\", \\\"kind\\\": \\\"contended\\\", \\\"nodes\\\": 3, \\\"threads\\\": $t, "
            + "\\\"opsPerSec\\\": 1234.5, \\\"failures\\\": 0}\";; esac; done";

    private static List<String> sh(String script) {
        return List.of("bash", "-c", script);
    }

    @Test
    void aRowPerCommandUntilQuit() throws Exception {
        PeerSession.Started started = PeerSession.start("fake", sh(SERVER), 10);
        assertTrue(started.skipped().isEmpty());
        try (PeerSession s = started.session().orElseThrow()) {
            BenchRow four = s.run("contended 4");
            assertEquals("fake", four.system());
            assertEquals(4, four.threads());
            assertEquals(1234.5, four.opsPerSec(), 1e-9);
            assertEquals(2, s.run("contended 2").threads(), "each command gets its own answer, in order");
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> s.run("bogus"));
            assertTrue(refused.getMessage().contains("baseline fake refused a command: 'bogus'"), refused.getMessage());
        }
    }

    @Test
    void aPeerThatCannotRunIsSkippedWithItsReason() throws Exception {
        PeerSession.Started started = PeerSession.start("etcd",
                sh("echo '" + PeerProtocol.SKIPPED + "etcd: not on the PATH; apt-get install etcd-server'"), 10);
        assertTrue(started.session().isEmpty());
        assertEquals("etcd: not on the PATH; apt-get install etcd-server", started.skipped().orElseThrow());
    }

    @Test
    void aJarThatEndsOrFallsSilentIsAFailureNotAHang() throws Exception {
        IllegalStateException ended = assertThrows(IllegalStateException.class,
                () -> PeerSession.start("crash", sh("echo 'Exception in thread main'; exit 1"), 10));
        assertTrue(ended.getMessage().contains("baseline crash ended"), ended.getMessage());

        PeerSession.Started started = PeerSession.start("mute", sh("echo '# ready'; exec sleep 30"), 1);
        try (PeerSession s = started.session().orElseThrow()) {
            IllegalStateException silent = assertThrows(IllegalStateException.class, () -> s.run("uncontended"));
            assertTrue(silent.getMessage().contains("baseline mute took too long to run 'uncontended'"),
                    silent.getMessage());
        }
    }
}
