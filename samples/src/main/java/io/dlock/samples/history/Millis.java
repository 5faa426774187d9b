package io.dlock.samples.history;

import java.util.Locale;

/** How reports write a time or a duration: milliseconds with three decimals, e.g. {@code 1234.567 ms}. */
final class Millis {

    private Millis() {
    }

    /** {@code nanos} as milliseconds with three decimals (truncated to the microsecond) and the unit. */
    static String of(long nanos) {
        return number(nanos) + " ms";
    }

    /** {@code nanos} as milliseconds with three decimals, without the unit. */
    static String number(long nanos) {
        long micros = nanos / 1_000;
        String sign = micros < 0 ? "-" : "";
        long abs = Math.abs(micros);
        return sign + abs / 1_000 + "." + String.format(Locale.ROOT, "%03d", abs % 1_000);
    }
}
