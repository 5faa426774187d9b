package io.dlock.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A set of node counts as a user writes it: a list {@code 3,5,8}, a doubling range {@code 2..256} (2, 4, 8,
 * ..., 256: the upper end is always included), a stepped range {@code 2..20:3} (2, 5, 8, ..., 20), or a mix
 * {@code 3,8..32}. The counts are sorted, without repeats.
 *
 * @param spec   the text as written (reports quote it)
 * @param counts the node counts, ascending
 */
public record NodeCounts(String spec, List<Integer> counts) {

    /**
     * Largest N a sweep accepts: every algorithm for 2..1024 takes under a minute on 2 cores since the protocols'
     * per-message work no longer grows with N (it was capped at 256 while 512 and 1024 took minutes), with
     * decentralized limited to {@value Sweep#DECENTRALIZED_MAX_ENTRIES} entries a run (see {@link Sweep}).
     * Messages grow as N^2 per entry times N entries: above 1024 a sweep would take many minutes.
     */
    static final int MAX_SWEEP_NODES = 1024;

    /** Copies {@code counts}. */
    public NodeCounts {
        counts = List.copyOf(counts);
    }

    /**
     * Parses {@code text}; every count must lie in {@code min..max}.
     *
     * @throws IllegalArgumentException naming the bad part and the allowed forms
     */
    static NodeCounts parse(String text, int min, int max) {
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
        return new NodeCounts(text, new ArrayList<>(out));
    }

    private static int checked(int n, int min, int max, String part) {
        if (n < min || n > max) {
            throw new IllegalArgumentException("node count " + n + " in '" + part + "' is outside " + min + ".." + max
                    + (max == MAX_SWEEP_NODES && n > max ? " (above " + max + " a sweep takes many minutes: the "
                    + "N^2-message algorithms send N^3 messages for N entries; use `dlock compare --nodes N` for one N)" : ""));
        }
        return n;
    }

    @Override
    public String toString() {
        return spec;
    }

    /** Converts node counts within {@code min..max}; a subclass per range gives picocli a converter to instantiate. */
    abstract static class Converter implements ITypeConverter<NodeCounts> {
        private final int min;
        private final int max;

        Converter(int min, int max) {
            this.min = min;
            this.max = max;
        }

        @Override
        public NodeCounts convert(String value) {
            try {
                return parse(value, min, max);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** N of a mutual-exclusion sweep: 2 to {@value #MAX_SWEEP_NODES}. */
    static final class SweepRange extends Converter {
        /** The converter picocli instantiates. */
        SweepRange() {
            super(2, MAX_SWEEP_NODES);
        }
    }

    /** n of the elections of a report: 2 to 4096. */
    static final class ElectionRange extends Converter {
        /** The converter picocli instantiates. */
        ElectionRange() {
            super(2, 4096);
        }
    }

    /** Cluster sizes of a benchmark on real channels: 2 to 64. */
    public static final class BenchRange extends Converter {
        /** The converter picocli instantiates. */
        BenchRange() {
            super(2, 64);
        }
    }
}
