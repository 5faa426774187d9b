package io.dlock.mutex.maekawa;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Maekawa's request sets for N nodes (ranks {@code 0..N-1}): every two sets intersect and node
 * {@code i} belongs to its own set {@code S_i} (docs/algorithms.md A10, conditions 1 and 2).
 *
 * <p>Two constructions, chosen by the option {@value MaekawaDefinition#QUORUM}:
 * <ul>
 *   <li>{@link Kind#PLANE} (the default): quorums from the finite projective plane of order q, q the
 *       smallest prime power with {@code q^2 + q + 1 >= N}, so {@code K <= q + 1}, about √N as
 *       Maekawa's paper promises. The plane has {@code M = q^2 + q + 1} points and as many lines;
 *       every line has q + 1 points and any two lines meet in exactly one point. Node {@code v} gets
 *       line {@code L_v} (the first N lines in a fixed order). Each point is then given to one node:
 *       first a perfect matching gives every node a point of its own line (one exists: the
 *       incidence graph is (q+1)-regular, so Hall's condition holds for any set of lines); the
 *       {@code M - N} points left over go one by one to the node whose load (number of sets it is
 *       in) would be smallest after taking the point, smallest rank first on a tie. {@code S_v} is
 *       the set of nodes owning a point of {@code L_v}: two sets meet at the owner of their lines'
 *       common point, {@code v} owns a point of {@code L_v}, and {@code |S_v| <= q + 1} (smaller when
 *       one node owns two points of the line). For {@code N = q^2 + q + 1} this is a projective
 *       plane exactly: {@code K = q + 1} for every node, every node in K sets, two sets meeting in one
 *       node. N = 7 is Maekawa's own plane of order 2, the sets of notes S4's example
 *       ({@code S0={0,1,2}, S1={1,3,5}, ...}). N = 1 is {@code S_0 = {0}}.</li>
 *   <li>{@link Kind#GRID}: {@code k = ceil(sqrt(N))}; node {@code v} sits at row {@code v / k},
 *       column {@code v % k} (row-major, the last row possibly partial); {@code S_v} is every
 *       existing node of {@code v}'s row or column. Two sets meet at (row of one, column of the
 *       other) or, when both nodes are in the partial last row, in that row. For a square N,
 *       {@code K = 2k - 1} for every node: N = 4, 9, 16, 25, 100 give K = 3, 5, 7, 9, 19, about twice
 *       the plane's. For other N the sizes differ between nodes (at most {@code 2k - 1}); for example
 *       N = 5 gives sizes 4, 4, 3, 3, 3.</li>
 * </ul>
 * The message formulas use the real sizes.
 */
final class Quorums {

    /** Which construction; the option values are the lower-case names. */
    enum Kind {
        /** Projective plane of order q: {@code K <= q + 1}, about √N (the default). */
        PLANE,
        /** Rows and columns of a square grid: {@code K <= 2 ceil(sqrt(N)) - 1}. */
        GRID;

        /** The option value, lower case. */
        String optionValue() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The N = 7 plane of docs/algorithms.md A10 (0-based). */
    static final int[][] PLANE_7 = {{0, 1, 2}, {1, 3, 5}, {2, 4, 5}, {0, 3, 4}, {1, 4, 6}, {0, 5, 6}, {2, 3, 6}};

    private final List<List<Integer>> sets;

    private Quorums(List<List<Integer>> sets) {
        this.sets = sets;
    }

    /** The default request sets for {@code n} nodes: the projective-plane construction. */
    static Quorums forSize(int n) {
        return forSize(n, Kind.PLANE);
    }

    /** The sets built last, per kind: every member of a view asks for the same N. */
    private record Built(int n, Quorums quorums) {
    }

    private static final AtomicReferenceArray<Built> LAST = new AtomicReferenceArray<>(Kind.values().length);

    /**
     * The request sets for {@code n} nodes built by {@code kind}. The construction is a pure function of
     * ({@code n}, {@code kind}) and its result immutable, so the last one built per kind is kept and shared: each
     * of the N members of a view used to build the whole plane in its constructor (O(N^1.5 log N) each, nearly
     * all of a 1 024-node Maekawa simulation).
     */
    static Quorums forSize(int n, Kind kind) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least one node, got " + n);
        }
        Built last = LAST.get(kind.ordinal());
        if (last != null && last.n() == n) {
            return last.quorums();
        }
        Quorums built = kind == Kind.GRID ? grid(n) : plane(n);
        LAST.set(kind.ordinal(), new Built(n, built));
        return built;
    }

    /** Maekawa's N = 7 plane. */
    static Quorums plane7() {
        List<List<Integer>> sets = new ArrayList<>();
        for (int[] s : PLANE_7) {
            List<Integer> set = new ArrayList<>();
            for (int v : s) {
                set.add(v);
            }
            Collections.sort(set);
            sets.add(List.copyOf(set));
        }
        return new Quorums(List.copyOf(sets));
    }

    /** The smallest prime power q with {@code q^2 + q + 1 >= n} (2 for {@code n <= 7}). */
    static int planeOrder(int n) {
        int q = 2;
        while ((long) q * q + q + 1 < n || !FiniteField.isPrimePower(q)) {
            q++;
        }
        return q;
    }

    /** The projective-plane construction for {@code n} nodes (see the class comment). */
    static Quorums plane(int n) {
        if (n == 1) {
            return new Quorums(List.of(List.of(0)));
        }
        if (n == 7) {
            return plane7();
        }
        int q = planeOrder(n);
        List<int[]> lines = projectiveLines(FiniteField.of(q));
        int points = lines.size();
        List<int[]> nodeLines = lines.subList(0, n);
        int[] owner = matchNodesToOwnPoints(nodeLines, points);
        // which of the nodes' lines pass through each point
        List<List<Integer>> linesThrough = new ArrayList<>(points);
        for (int p = 0; p < points; p++) {
            linesThrough.add(new ArrayList<>());
        }
        for (int v = 0; v < n; v++) {
            for (int p : nodeLines.get(v)) {
                linesThrough.get(p).add(v);
            }
        }
        List<Set<Integer>> sets = new ArrayList<>(n);
        for (int v = 0; v < n; v++) {
            sets.add(new TreeSet<>());
        }
        int[] load = new int[n];
        for (int p = 0; p < points; p++) {
            if (owner[p] >= 0) {
                for (int line : linesThrough.get(p)) {
                    if (sets.get(line).add(owner[p])) {
                        load[owner[p]]++;
                    }
                }
            }
        }
        // the rest, spread evenly: each point to the node whose load after taking it is smallest
        int[] alreadyIn = new int[n]; // for the point at hand: how many of its lines' sets hold each node
        for (int p = 0; p < points; p++) {
            if (owner[p] >= 0) {
                continue;
            }
            List<Integer> through = linesThrough.get(p);
            for (int line : through) {
                for (int u : sets.get(line)) {
                    alreadyIn[u]++;
                }
            }
            int best = -1;
            int bestLoad = Integer.MAX_VALUE;
            for (int u = 0; u < n; u++) {
                int after = load[u] + through.size() - alreadyIn[u];
                if (after < bestLoad) {
                    bestLoad = after;
                    best = u;
                }
            }
            java.util.Arrays.fill(alreadyIn, 0);
            owner[p] = best;
            for (int line : through) {
                sets.get(line).add(best);
            }
            load[best] = bestLoad;
        }
        List<List<Integer>> result = new ArrayList<>(n);
        for (Set<Integer> s : sets) {
            result.add(List.copyOf(s));
        }
        return new Quorums(List.copyOf(result));
    }

    /**
     * The lines of the projective plane over {@code f}, each as its points' indices, ascending. Points
     * and lines are the normalized non-zero triples {@code (1, y, z)}, {@code (0, 1, z)} and
     * {@code (0, 0, 1)}, indexed in that order ({@code y q + z}, then {@code q^2 + z}, then
     * {@code q^2 + q}); point {@code (x, y, z)} lies on line {@code [a, b, c]} when
     * {@code ax + by + cz = 0}.
     */
    static List<int[]> projectiveLines(FiniteField f) {
        int q = f.order();
        List<int[]> triples = new ArrayList<>(q * q + q + 1);
        for (int y = 0; y < q; y++) {
            for (int z = 0; z < q; z++) {
                triples.add(new int[] {1, y, z});
            }
        }
        for (int z = 0; z < q; z++) {
            triples.add(new int[] {0, 1, z});
        }
        triples.add(new int[] {0, 0, 1});
        List<int[]> lines = new ArrayList<>(triples.size());
        for (int[] l : triples) {
            int a = l[0];
            int b = l[1];
            int c = l[2];
            int[] on = new int[q + 1];
            int count = 0;
            if (c != 0) {
                // (1, y, z) with z = -(a + b y) / c, and (0, 1, -b / c)
                int minusInvC = f.neg(f.inv(c));
                for (int y = 0; y < q; y++) {
                    on[count++] = y * q + f.mul(f.add(a, f.mul(b, y)), minusInvC);
                }
                on[count++] = q * q + f.mul(b, minusInvC);
            } else if (b != 0) {
                // (1, -a / b, z) for every z, and (0, 0, 1)
                int y = f.mul(a, f.neg(f.inv(b)));
                for (int z = 0; z < q; z++) {
                    on[count++] = y * q + z;
                }
                on[count++] = q * q + q;
            } else {
                // the line at infinity x = 0: (0, 1, z) for every z, and (0, 0, 1)
                for (int z = 0; z < q; z++) {
                    on[count++] = q * q + z;
                }
                on[count++] = q * q + q;
            }
            java.util.Arrays.sort(on);
            lines.add(on);
        }
        return lines;
    }

    /**
     * A perfect matching of the nodes (one per line of {@code nodeLines}) to points on their own
     * lines: a greedy pass, then augmenting paths (Kuhn) for the nodes left, nodes and points in
     * ascending order so that every node computes the same one.
     *
     * @return for each point, the node matched to it, or -1
     */
    private static int[] matchNodesToOwnPoints(List<int[]> nodeLines, int points) {
        int[] owner = new int[points];
        java.util.Arrays.fill(owner, -1);
        boolean[] matched = new boolean[nodeLines.size()];
        for (int v = 0; v < nodeLines.size(); v++) { // greedy first: most nodes find a free point at once
            for (int p : nodeLines.get(v)) {
                if (owner[p] < 0) {
                    owner[p] = v;
                    matched[v] = true;
                    break;
                }
            }
        }
        // rounds of augmenting paths, one visited set per round (each round costs O(edges))
        boolean progress = true;
        int left = 0;
        for (boolean m : matched) {
            left += m ? 0 : 1;
        }
        while (left > 0) {
            if (!progress) {
                throw new AssertionError(left + " nodes without a point of their own line"); // Hall's condition
            }
            progress = false;
            boolean[] seen = new boolean[points];
            for (int v = 0; v < nodeLines.size(); v++) {
                if (!matched[v] && augment(v, nodeLines, owner, seen)) {
                    matched[v] = true;
                    left--;
                    progress = true;
                }
            }
        }
        return owner;
    }

    private static boolean augment(int v, List<int[]> nodeLines, int[] owner, boolean[] seen) {
        for (int p : nodeLines.get(v)) {
            if (!seen[p]) {
                seen[p] = true;
                if (owner[p] < 0 || augment(owner[p], nodeLines, owner, seen)) {
                    owner[p] = v;
                    return true;
                }
            }
        }
        return false;
    }

    /** The row-or-column grid for {@code n} nodes. */
    static Quorums grid(int n) {
        int k = (int) Math.ceil(Math.sqrt(n));
        while ((long) k * k < n) {
            k++;
        }
        while (k > 1 && (long) (k - 1) * (k - 1) >= n) {
            k--;
        }
        List<List<Integer>> sets = new ArrayList<>(n);
        for (int v = 0; v < n; v++) {
            Set<Integer> s = new TreeSet<>();
            int row = v / k;
            int col = v % k;
            for (int c = 0; c < k; c++) {
                int u = row * k + c;
                if (u < n) {
                    s.add(u);
                }
            }
            for (int r = 0; r * k + col < n; r++) {
                s.add(r * k + col);
            }
            sets.add(List.copyOf(s));
        }
        return new Quorums(List.copyOf(sets));
    }

    /** {@code S_i}, ascending. */
    List<Integer> of(int i) {
        return sets.get(i);
    }

    /** Number of nodes. */
    int n() {
        return sets.size();
    }

    /** {@code |S_i|} for every i. */
    int[] sizes() {
        return sets.stream().mapToInt(List::size).toArray();
    }

    /** The mean set size. */
    double meanSize() {
        return sets.stream().mapToInt(List::size).average().orElse(0);
    }

    @Override
    public String toString() {
        return "Quorums" + sets;
    }
}
