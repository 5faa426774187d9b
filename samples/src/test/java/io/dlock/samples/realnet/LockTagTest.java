package io.dlock.samples.realnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LockTagTest {

    @Test
    void when_linesAreSplit_then_eachLockGetsItsOwnLinesUntagged_andEveryLockTheUntaggedOnes() {
        List<String> lines = List.of(
                "100 1.1.0 started 812",
                "110 " + LockTag.tag("counter-0", "1.1.1") + " acquire",
                "120 " + LockTag.tag("counter-1", "2.1.1") + " acquire",
                "130 nemesis begin pause 3",
                "140 " + LockTag.tag("counter-0", "1.1.1") + " granted 7");

        Map<String, List<String>> split = LockTag.split(lines, List.of("counter-0", "counter-1"));

        assertEquals(List.of("counter-0", "counter-1"), List.copyOf(split.keySet()));
        assertEquals(List.of("100 1.1.0 started 812", "110 1.1.1 acquire", "130 nemesis begin pause 3",
                "140 1.1.1 granted 7"), split.get("counter-0"));
        assertEquals(List.of("100 1.1.0 started 812", "120 2.1.1 acquire", "130 nemesis begin pause 3"),
                split.get("counter-1"));
    }

    @Test
    void when_aLineNamesAnUnknownLock_orHasNoProcess_then_theSplitFailsNamingIt() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> LockTag.split(List.of("1 other/1.1.1 acquire"), List.of("counter-0")));
        assertEquals("a history line of lock 'other', which is not one of [counter-0]: '1 other/1.1.1 acquire'",
                unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LockTag.split(List.of("1"), List.of("counter-0")));
    }
}
