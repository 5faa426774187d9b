package io.dlock.mutex.maekawa;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Maekawa's request sets for N nodes (ranks {@code 0..N-1}): every two sets intersect and node
 * {@code i} belongs to its own set {@code S_i} (SPEC.md A10, conditions 1 and 2).
 *
 * <p>Construction:
 * <ul>
 *   <li>{@code N = 7}: Maekawa's finite projective plane of order 2, the sets of seed 004's example
 *       ({@code S0={0,1,2}, S1={1,3,5}, ...}): {@code K = 3}, every node in exactly 3 sets, any two
 *       sets meet in exactly one node.</li>
 *   <li>Every other N: the grid. {@code k = ceil(sqrt(N))}; node {@code v} sits at row {@code v / k},
 *       column {@code v % k} (row-major, the last row possibly partial); {@code S_v} is every
 *       existing node of {@code v}'s row or column. Two sets meet at (row of one, column of the
 *       other) or, when both nodes are in the partial last row, in that row. For a square N,
 *       {@code K = 2k - 1} for every node and every node is in exactly K sets: N = 4, 9, 16, 25, 100
 *       give K = 3, 5, 7, 9, 19. For other N the sizes differ between nodes (at most
 *       {@code 2k - 1}); for example N = 5 (a 3x3 grid with a last row of 2) gives sizes 4, 4, 3, 3, 3.</li>
 * </ul>
 * The grid's K is about {@code 2 sqrt(N)}, twice the projective planes' optimum {@code K ~ sqrt(N)}
 * (which exist only for {@code N = q^2 + q + 1}, q a prime power); the message formulas use the real K.
 */
final class Quorums {

    /** The N = 7 plane of SPEC.md A10 (0-based). */
    static final int[][] PLANE_7 = {{0, 1, 2}, {1, 3, 5}, {2, 4, 5}, {0, 3, 4}, {1, 4, 6}, {0, 5, 6}, {2, 3, 6}};

    private final List<List<Integer>> sets;

    private Quorums(List<List<Integer>> sets) {
        this.sets = sets;
    }

    /** The request sets for {@code n} nodes: the plane for 7, the grid otherwise. */
    static Quorums forSize(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least one node, got " + n);
        }
        return n == 7 ? plane7() : grid(n);
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
