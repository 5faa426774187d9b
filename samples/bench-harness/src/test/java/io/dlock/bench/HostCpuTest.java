package io.dlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
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
    void aMeasuredWindowsShareIsTheHostsTicksBetweenItsEnds() throws Exception {
        // every reading 10 ticks later, 2 of them stolen: any window, latency or contended, had a fifth stolen
        AtomicLong readings = new AtomicLong();
        Supplier<HostCpu> host = () -> {
            long n = readings.incrementAndGet();
            return new HostCpu(10 * n, 2 * n);
        };
        BenchHarness harness = new BenchHarness(0, 0.05, 5, CpuClock.PROCESS, host);
        assertEquals(0.2, harness.uncontended(NodeLock.of(new ReentrantLock())).stolenShare(), 1e-12);
        assertEquals(0.2, harness.contended(List.of(NodeLock.of(new ReentrantLock())), 1).stolenShare(), 1e-12);
        assertTrue(readings.get() >= 4, "read at both ends of each window: " + readings.get());
    }

    @Test
    void aWindowTheHostCountedNoTickInHasNoShare() throws Exception {
        // a host whose /proc/stat did not move in a short window (seen on CI): no share, not 0 and not a failure
        HostCpu frozen = new HostCpu(5000, 100);
        Measurement m = new BenchHarness(0, 0.05, 5, CpuClock.PROCESS, () -> frozen)
                .uncontended(NodeLock.of(new ReentrantLock()));
        assertTrue(Double.isNaN(m.stolenShare()), "share " + m.stolenShare());
        assertEquals(0, m.failures());
    }

    @Test
    void theRealHostIsReadWhereItHasAProcStat() {
        HostCpu now = HostCpu.now();
        if (Files.isReadable(Path.of("/proc/stat"))) {
            assertTrue(now.known() && now.total() > 0 && now.stolen() >= 0 && now.stolen() <= now.total(), "" + now);
        } else {
            assertFalse(now.known(), "no /proc/stat: nothing measured");
        }
    }
}
