package io.dlock.samples.history;

import static io.dlock.samples.history.Histories.history;
import static io.dlock.samples.history.Histories.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rule 4: the availability figures of {@link HistoryChecker}, computed exactly on a small hand-made history. */
class AvailabilityFiguresTest {

    /** Grants (ms) and their clients, in time order; each hold lasts 1 ms after its grant. */
    private static final String[][] GRANTS = {
        {"10", "1.1.1"}, {"20", "3.1.1"}, {"130", "2.1.1"}, {"180", "1.1.1"}, {"400", "2.1.1"}, {"650", "3.1.1"},
        {"10600", "1.1.1"}, {"20000", "2.1.1"},
    };

    private static History scenario() {
        StringBuilder text = new StringBuilder("0 1.1.0 started 100\n");
        for (int i = 0; i < GRANTS.length; i++) {
            double at = Double.parseDouble(GRANTS[i][0]);
            String p = GRANTS[i][1];
            text.append(at - 0.5).append(' ').append(p).append(" acquire\n")
                    .append(at).append(' ').append(p).append(" granted ").append(i + 1).append('\n')
                    .append(at + 0.5).append(' ').append(p).append(" release\n")
                    .append(at + 1).append(' ').append(p).append(" released\n");
        }
        text.append("""
                50 nemesis begin pause 3
                500 nemesis end pause 3
                600 nemesis begin split 1,2 majority 3
                700 nemesis heal split 1,2
                15000 nemesis begin kill 2
                """);
        return history(text.toString());
    }

    /**
     * pause 3 from 50 to 500 ms (majority 1,2 by default): the majority's next grant at 130 (80 ms); majority grants
     * in [50, 10500] at 130, 180, 400, so the longest gap is 180..400 (220 ms; 10600 is past end + 10 s); node 3
     * rejoins at 650 (150 ms after the end). split 1,2 from 600 to 700 ms with majority 3: 3's grant at 650 (50 ms,
     * the only gap); 1 rejoins at 10600 (9900 ms), 2 at 20000 (19300 ms). kill 2 from 15000 ms, never ended: no
     * majority (1,3) grant after it. The longest stall between any grants is 650..10600 (9950 ms).
     */
    @Test
    void figures_exactOnHandMadeHistory() {
        CheckReport r = HistoryChecker.check(scenario());
        assertTrue(r.valid(), r::summary);
        assertEquals(List.of(
                // node 3's first grant after the pause (650) came during the split (600 to 700): 0 after the last
                // heal; so did node 2's after the split, during the kill of 2 (never ended)
                new FaultWindowFigures("pause", List.of(3), ms(50), ms(500), ms(80), ms(220), Map.of(3, ms(150)),
                        Map.of(3, 0L)),
                new FaultWindowFigures("split", List.of(1, 2), ms(600), ms(700), ms(50), ms(50),
                        Map.of(1, ms(9900), 2, ms(19300)), Map.of(1, ms(9900), 2, 0L)),
                new FaultWindowFigures("kill", List.of(2), ms(15000), -1, -1, -1, Map.of(2, -1L), Map.of(2, -1L))),
                r.windows());
        assertEquals(List.of(1, 2), List.copyOf(r.windows().get(1).rejoinNanos().keySet()), "targets in order");
        assertEquals(ms(9950), r.longestStallNanos());
        assertEquals(8, r.grants());
    }

    /**
     * A fault that begins before a healed target's first grant moves the heal its rejoin is judged from: split 1,2
     * from 100 to 200 ms; node 2 is granted at 500, before the pause of 3 (1000 to 3000 ms) begins, so it is judged
     * from 200 (300 ms); node 1 is granted only at 4000, after the pause began and ended, so it is judged from the
     * pause's heal at 3000 (1000 ms, against 3800 from the split's).
     */
    @Test
    void rejoin_afterALaterFaultThatBeganFirst_isMeasuredFromTheLastHeal() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.0 started 100
                10 3.1.1 acquire
                11 3.1.1 granted 1
                12 3.1.1 release
                13 3.1.1 released
                100 nemesis begin split 1,2 majority 3
                200 nemesis heal split 1,2
                499 2.1.1 acquire
                500 2.1.1 granted 2
                501 2.1.1 release
                502 2.1.1 released
                1000 nemesis begin pause 3
                3000 nemesis end pause 3
                3499 3.1.1 acquire
                3500 3.1.1 granted 3
                3501 3.1.1 release
                3502 3.1.1 released
                3999 1.1.1 acquire
                4000 1.1.1 granted 4
                4001 1.1.1 release
                4002 1.1.1 released
                """));
        assertTrue(r.valid(), r::summary);
        FaultWindowFigures split = r.windows().get(0);
        assertEquals(Map.of(1, ms(3800), 2, ms(300)), split.rejoinNanos());
        assertEquals(Map.of(1, ms(1000), 2, ms(300)), split.rejoinAfterLastHealNanos());
        assertEquals(Map.of(3, ms(500)), r.windows().get(1).rejoinAfterLastHealNanos());
        assertTrue(r.summary().contains("1: 3800.000 (1000.000 after the last heal), 2: 300.000"), r::summary);
    }

    /** The summary's table shows the same figures, in milliseconds since the first event, "none" where none. */
    @Test
    void summary_tabulatesWindows() {
        String summary = HistoryChecker.check(scenario()).summary();
        assertTrue(summary.contains("""
                  kind   targets  begin      end      first majority grant  longest majority gap  rejoin
                  pause  3        50.000     500.000  80.000                220.000               3: 150.000 (0.000 after the last heal)
                  split  1,2      600.000    700.000  50.000                50.000                1: 9900.000, 2: 19300.000 (0.000 after the last heal)
                  kill   2        15000.000  none     none                  none                  2: none
                """), summary);
        assertTrue(summary.contains("Longest stall between consecutive grants: 9950.000 ms\n"), summary);
    }
}
