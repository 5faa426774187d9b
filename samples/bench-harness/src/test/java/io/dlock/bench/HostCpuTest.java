package io.dlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/** The host's CPU time from {@code /proc/stat}: the first line's ticks, spans between readings, the stolen share. */
class HostCpuTest {

    @Test
    void readsEveryStateUpToStealAndLeavesTheGuestsOut() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        HostCpu a = HostCpu.parse("cpu  100 5 50 800 10 1 4 30 70 0");
        assertEquals(new HostCpu(1000, 30), a);
        HostCpu b = HostCpu.parse("cpu  200 5 90 1300 10 1 4 90 99 0");
        HostCpu span = b.minus(a);
        assertEquals(new HostCpu(700, 60), span);
        assertEquals(60.0 / 700, span.stolenShare(), 1e-12);
        assertEquals(new HostCpu(1400, 120), span.plus(span), "slices add up");
        assertEquals(0.0, HostCpu.ZERO.plus(new HostCpu(10, 0)).stolenShare(), 0);
    }

    @Test
    void anUnknownReadingMakesEverythingFromItUnknown() {
        assertEquals(HostCpu.UNKNOWN, HostCpu.parse("intr 12345 0 0"));
        assertEquals(HostCpu.UNKNOWN, HostCpu.parse("cpu 1 2 3"));
        assertFalse(HostCpu.UNKNOWN.minus(HostCpu.ZERO).known());
        assertFalse(HostCpu.ZERO.plus(HostCpu.UNKNOWN).known());
        assertTrue(Double.isNaN(HostCpu.UNKNOWN.stolenShare()));
        assertTrue(Double.isNaN(HostCpu.ZERO.stolenShare()), "an empty span has no share");
    }

    @Test
    void aMeasuredWindowHasAShareWhereTheHostReportsOne() throws Exception {
        HostCpu before = HostCpu.now();
        Measurement m = new BenchHarness(0.01, 0.05, 5).uncontended(NodeLock.of(new ReentrantLock()));
        if (before.known()) {
            assertTrue(m.stolenShare() >= 0 && m.stolenShare() <= 1, "share " + m.stolenShare());
        } else {
            assertTrue(Double.isNaN(m.stolenShare()), "no /proc/stat: not measured");
        }
    }
}
