package io.dlock.samples;

import java.util.Locale;

/** The two JSON literals the commands write by hand: strings and numbers. */
public final class Json {

    private Json() {
    }

    /** A JSON string literal. */
    static String string(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                default:
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    /** A JSON number with {@code decimals} decimals, or null for NaN and infinities (JSON has neither). */
    public static String number(double v, int decimals) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
