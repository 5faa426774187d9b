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
                new FaultWindowFigures("pause", List.of(3), ms(50), ms(500), ms(80), ms(220), Map.of(3, ms(150))),
                new FaultWindowFigures("split", List.of(1, 2), ms(600), ms(700), ms(50), ms(50),
                        Map.of(1, ms(9900), 2, ms(19300))),
                new FaultWindowFigures("kill", List.of(2), ms(15000), -1, -1, -1, Map.of(2, -1L))),
                r.windows());
        assertEquals(List.of(1, 2), List.copyOf(r.windows().get(1).rejoinNanos().keySet()), "targets in order");
        assertEquals(ms(9950), r.longestStallNanos());
        assertEquals(8, r.grants());
    }

    /** The summary's table shows the same figures, in milliseconds since the first event, "none" where none. */
    @Test
    void summary_tabulatesWindows() {
        String summary = HistoryChecker.check(scenario()).summary();
        assertTrue(summary.contains("""
                  kind   targets  begin      end      first majority grant  longest majority gap  rejoin
                  pause  3        50.000     500.000  80.000                220.000               3: 150.000
                  split  1,2      600.000    700.000  50.000                50.000                1: 9900.000, 2: 19300.000
                  kill   2        15000.000  none     none                  none                  2: none
                """), summary);
        assertTrue(summary.contains("Longest stall between consecutive grants: 9950.000 ms\n"), summary);
    }
}
