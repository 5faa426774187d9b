package io.dlock.samples.realnet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A seeded list of faults for {@link Nemesis}: the same seed, duration, node count and kinds give the same list.
 * Each fault is followed by a quiet gap of 5-10 s; faults are added while the planned time (a fault's own
 * length, or an estimate for those whose length depends on how fast nodes start, plus its gap) stays within
 * the duration, and there is always at least one.
 *
 * <p>The kinds are drawn from a shuffled bag (every allowed kind once, in a seeded order, then the bag is
 * refilled), so that a short schedule still holds different kinds. Kinds, targets and times each come from
 * their own {@link Random}, forked from the seed, so that changing how one is drawn leaves the others as they
 * were.
 */
final class NemesisSchedule {

    /** What a fault does; {@link #configName} is its name in the history and in {@code dlock.test.nemesis-faults}. */
    enum Kind {
        /** One process paused with SIGSTOP for 5-20 s, then SIGCONT. */
        PAUSE("pause"),
        /** One host's switch port down for 10-25 s. */
        CUT("cut"),
        /** Two hosts moved to a second bridge (a 3|2 split) for 10-25 s. */
        SPLIT("split"),
        /** One process killed ({@code kill -9}), started again (next incarnation) after 3-10 s. */
        KILL("kill"),
        /** Each node in turn stopped cleanly, started again, and awaited until it has started. */
        ROLLING_RESTART("rolling-restart"),
        /**
         * Two nodes stopped cleanly, then started again, and right after their launch the JGroups coordinator
         * (the node launched longest ago) stopped cleanly and started again.
         */
        COORDINATOR_LEAVE("coordinator-leave");

        private final String configName;

        Kind(String configName) {
            this.configName = configName;
        }

        String configName() {
            return configName;
        }

        /** The kinds named in a comma-separated list, or every kind for {@code all} or an empty list. */
        static Set<Kind> parse(String names) {
            if (names == null || names.isBlank() || names.trim().equals("all")) {
                return EnumSet.allOf(Kind.class);
            }
            Set<Kind> kinds = EnumSet.noneOf(Kind.class);
            for (String name : names.split(",")) {
                String n = name.trim().toLowerCase(Locale.ROOT);
                kinds.add(Arrays.stream(values()).filter(k -> k.configName.equals(n)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown fault kind '" + n + "'; the kinds are "
                                + Arrays.stream(values()).map(Kind::configName).collect(Collectors.joining(", "))
                                + ", or all")));
            }
            return kinds;
        }
    }

    /**
     * One fault.
     *
     * @param kind    what it does
     * @param targets the nodes it acts on (1-based): the paused, cut, killed node; the two split off; the two
     *                stopped before the coordinator; every node, in order, for a rolling restart
     * @param lengthMs how long the fault lasts before it heals (pause, cut, split; for a kill, how long the node
     *                stays down); 0 where it lasts as long as the nodes take to start
     * @param gapMs   the quiet time after it has healed
     */
    record Fault(Kind kind, List<Integer> targets, long lengthMs, long gapMs) {

        @Override
        public String toString() {
            String what = kind.configName() + " "
                    + targets.stream().map(String::valueOf).collect(Collectors.joining(","));
            return lengthMs > 0 ? what + " for " + lengthMs + " ms, then quiet " + gapMs + " ms"
                    : what + ", then quiet " + gapMs + " ms";
        }
    }

    /** Planned length of a rolling restart per node, and of a coordinator's leave (their real length varies). */
    static final long RESTART_ESTIMATE_MS = 6_000;
    static final long COORDINATOR_LEAVE_ESTIMATE_MS = 15_000;

    private final long seed;
    private final List<Fault> faults;

    private NemesisSchedule(long seed, List<Fault> faults) {
        this.seed = seed;
        this.faults = List.copyOf(faults);
    }

    /** The schedule of {@code seed} for {@code nodes} nodes, about {@code duration} long, of the given kinds. */
    static NemesisSchedule of(long seed, Duration duration, int nodes, Set<Kind> kinds) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("a schedule needs at least one fault kind");
        }
        if (nodes < 3) {
            throw new IllegalArgumentException("a schedule needs at least 3 nodes, got " + nodes);
        }
        Random root = new Random(seed);
        Random kindRandom = new Random(root.nextLong());
        Random targetRandom = new Random(root.nextLong());
        Random timeRandom = new Random(root.nextLong());
        List<Kind> bag = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        long planned = 0;
        while (true) {
            if (bag.isEmpty()) {
                bag.addAll(kinds); // EnumSet order, then shuffled: the same for the same seed
                Collections.shuffle(bag, kindRandom);
            }
            Kind kind = bag.remove(0);
            Fault fault = switch (kind) {
                case PAUSE -> new Fault(kind, pick(targetRandom, nodes, 1), between(timeRandom, 5_000, 20_000), 0);
                case CUT -> new Fault(kind, pick(targetRandom, nodes, 1), between(timeRandom, 10_000, 25_000), 0);
                case SPLIT -> new Fault(kind, pick(targetRandom, nodes, 2), between(timeRandom, 10_000, 25_000), 0);
                case KILL -> new Fault(kind, pick(targetRandom, nodes, 1), between(timeRandom, 3_000, 10_000), 0);
                case ROLLING_RESTART -> new Fault(kind, pick(targetRandom, nodes, 0), 0, 0);
                case COORDINATOR_LEAVE -> new Fault(kind, pick(targetRandom, nodes, 2), 0, 0);
            };
            fault = new Fault(fault.kind(), fault.targets(), fault.lengthMs(), between(timeRandom, 5_000, 10_000));
            long length = planned(fault, nodes) + fault.gapMs();
            if (!faults.isEmpty() && planned + length > duration.toMillis()) {
                break;
            }
            faults.add(fault);
            planned += length;
        }
        return new NemesisSchedule(seed, faults);
    }

    /** The faults, in order. */
    List<Fault> faults() {
        return faults;
    }

    long seed() {
        return seed;
    }

    /** The planned time of the whole schedule, gaps included, in ms. */
    long plannedMs(int nodes) {
        return faults.stream().mapToLong(f -> planned(f, nodes) + f.gapMs()).sum();
    }

    /** One line per fault, numbered. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < faults.size(); i++) {
            out.append(i + 1).append('/').append(faults.size()).append(' ').append(faults.get(i)).append('\n');
        }
        return out.toString();
    }

    private static long planned(Fault f, int nodes) {
        return switch (f.kind()) {
            case ROLLING_RESTART -> RESTART_ESTIMATE_MS * nodes;
            case COORDINATOR_LEAVE -> COORDINATOR_LEAVE_ESTIMATE_MS;
            default -> f.lengthMs();
        };
    }

    /** {@code count} distinct nodes in ascending order, or every node in order for 0. */
    private static List<Integer> pick(Random random, int nodes, int count) {
        List<Integer> all = new ArrayList<>();
        for (int n = 1; n <= nodes; n++) {
            all.add(n);
        }
        if (count == 0) {
            return List.copyOf(all);
        }
        Collections.shuffle(all, random);
        List<Integer> picked = new ArrayList<>(all.subList(0, count));
        Collections.sort(picked);
        return List.copyOf(picked);
    }

    private static long between(Random random, long min, long max) {
        return min + (long) (random.nextDouble() * (max - min));
    }
}
