package io.dlock.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What the commands share: the output format, the {@code --nodes} range syntax, and usage errors. A
 * bad option value becomes a picocli {@link ParameterException}, so every command answers it the same
 * way: a one-line error, the command's usage, exit code 2.
 */
final class Cli {

    /**
     * Largest N a sweep accepts: every algorithm at N = 256 takes seconds (the whole default sweep 2..256 about
     * 16 s on 2 cores), but at 512 and 1024 decentralized, Ricart-Agrawala and Maekawa together took more than
     * 5 minutes (messages grow as N^2 per entry times N entries).
     */
    static final int MAX_SWEEP_NODES = 256;

    private Cli() {
    }

    /** Output format of the commands that print results. */
    enum Format {
        /** Aligned columns for people ({@code table} is accepted as an alias). */
        TEXT,
        /** Machine-readable JSON. */
        JSON
    }

    /** Converts {@code text}, {@code table} (alias of text) or {@code json}. */
    static final class FormatConverter implements CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            switch (value.toLowerCase(Locale.ROOT)) {
                case "text":
                case "table":
                    return Format.TEXT;
                case "json":
                    return Format.JSON;
                default:
                    throw new CommandLine.TypeConversionException("'" + value + "' is not a format; allowed: text, json");
            }
        }
    }

    /** A usage error of {@code spec}'s command: picocli prints it, then the usage, and exits with 2. */
    static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /**
     * Parses a set of node counts: a list {@code 3,5,8}, a doubling range {@code 2..256} (2, 4, 8, ..., 256:
     * the upper end is always included), a stepped range {@code 2..20:3} (2, 5, 8, ..., 20), or a mix
     * {@code 3,8..32}. Sorted, without repeats.
     *
     * @throws IllegalArgumentException naming the bad part and the allowed forms
     */
    static List<Integer> parseNodes(String text, int min, int max) {
        TreeSet<Integer> out = new TreeSet<>();
        for (String raw : text.split(",")) {
            String part = raw.trim();
            try {
                int range = part.indexOf("..");
                if (range < 0) {
                    out.add(checked(Integer.parseInt(part), min, max, part));
                    continue;
                }
                int from = checked(Integer.parseInt(part.substring(0, range)), min, max, part);
                String rest = part.substring(range + 2);
                int colon = rest.indexOf(':');
                int to = checked(Integer.parseInt(colon < 0 ? rest : rest.substring(0, colon)), min, max, part);
                if (to < from) {
                    throw new IllegalArgumentException("range " + part + " goes down; write it low..high");
                }
                if (colon < 0) {
                    for (long n = from; n < to; n *= 2) {
                        out.add((int) n);
                    }
                } else {
                    int step = Integer.parseInt(rest.substring(colon + 1));
                    if (step < 1) {
                        throw new IllegalArgumentException("step of " + part + " must be at least 1");
                    }
                    for (long n = from; n < to; n += step) {
                        out.add((int) n);
                    }
                }
                out.add(to);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part + "' is not a node count; allowed: a number, a list 3,5,8,"
                        + " a doubling range 2..256 or a stepped range 2..20:3");
            }
        }
        return new ArrayList<>(out);
    }

    private static int checked(int n, int min, int max, String part) {
        if (n < min || n > max) {
            throw new IllegalArgumentException("node count " + n + " in '" + part + "' is outside " + min + ".." + max
                    + (max == MAX_SWEEP_NODES && n > max ? " (above " + max + " a sweep takes many minutes: the "
                    + "N^2-message algorithms send N^3 messages for N entries; use `dlock compare --nodes N` for one N)" : ""));
        }
        return n;
    }

    /** A JSON string literal. */
    static String jsonString(String s) {
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

    /** A JSON number, or null for NaN and infinities (JSON has neither). */
    static String jsonNumber(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }
}
