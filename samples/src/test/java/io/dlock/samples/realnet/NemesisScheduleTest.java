package io.dlock.samples.realnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.samples.realnet.NemesisSchedule.Fault;
import io.dlock.samples.realnet.NemesisSchedule.Kind;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The nemesis's schedule is a pure function of its seed, length, node count and kinds, within its bounds. */
class NemesisScheduleTest {

    /** The same seed gives the same schedule; another seed another one. */
    @Test
    void sameSeed_sameSchedule() {
        Set<Kind> all = EnumSet.allOf(Kind.class);
        NemesisSchedule a = NemesisSchedule.of(42, Duration.ofSeconds(600), 5, all);
        assertEquals(a.faults(), NemesisSchedule.of(42, Duration.ofSeconds(600), 5, all).faults());
        assertEquals(a.toString(), NemesisSchedule.of(42, Duration.ofSeconds(600), 5, all).toString());
        assertNotEquals(a.faults(), NemesisSchedule.of(43, Duration.ofSeconds(600), 5, all).faults());
    }

    /** Lengths, gaps and targets stay within their ranges, and the plan within the duration. */
    @Test
    void everyFault_staysWithinItsBounds() {
        for (long seed = 0; seed < 50; seed++) {
            NemesisSchedule s = NemesisSchedule.of(seed, Duration.ofSeconds(600), 5, EnumSet.allOf(Kind.class));
            assertTrue(s.plannedMs(5) <= 600_000, "seed " + seed + " plans " + s.plannedMs(5) + " ms");
            for (Fault f : s.faults()) {
                assertTrue(f.gapMs() >= 5_000 && f.gapMs() <= 10_000, f.toString());
                assertTrue(f.targets().stream().allMatch(n -> n >= 1 && n <= 5), f.toString());
                assertEquals(f.targets().size(), new HashSet<>(f.targets()).size(), f.toString());
                switch (f.kind()) {
                    case PAUSE -> check(f, 1, 5_000, 20_000);
                    case CUT -> check(f, 1, 10_000, 25_000);
                    case SPLIT -> check(f, 2, 10_000, 25_000);
                    case KILL -> check(f, 1, 3_000, 10_000);
                    case ROLLING_RESTART -> assertEquals(List.of(1, 2, 3, 4, 5), f.targets());
                    case COORDINATOR_LEAVE -> assertEquals(2, f.targets().size());
                }
            }
        }
    }

    /** Only the chosen kinds are drawn; a short schedule holds at least one fault, and a bag of kinds varies them. */
    @Test
    void kinds_areChosenByName_andVaried() {
        NemesisSchedule splits = NemesisSchedule.of(1, Duration.ofSeconds(300), 5, Kind.parse("split, pause"));
        assertTrue(splits.faults().stream().allMatch(f -> f.kind() == Kind.SPLIT || f.kind() == Kind.PAUSE));
        assertEquals(Set.of(Kind.SPLIT, Kind.PAUSE), Set.copyOf(splits.faults().stream().map(Fault::kind).toList()));
        assertFalse(NemesisSchedule.of(1, Duration.ofSeconds(1), 5, EnumSet.allOf(Kind.class)).faults().isEmpty());
        NemesisSchedule six = NemesisSchedule.of(9, Duration.ofSeconds(3_600), 5, Kind.parse("all"));
        assertEquals(EnumSet.allOf(Kind.class),
                Set.copyOf(six.faults().subList(0, 6).stream().map(Fault::kind).toList()));
        assertThrows(IllegalArgumentException.class, () -> Kind.parse("pause,flood"));
    }

    private static void check(Fault f, int targets, long min, long max) {
        assertEquals(targets, f.targets().size(), f.toString());
        assertTrue(f.lengthMs() >= min && f.lengthMs() <= max, f.toString());
    }
}
