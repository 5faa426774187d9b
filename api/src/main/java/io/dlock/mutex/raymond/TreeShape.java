package io.dlock.mutex.raymond;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;

/**
 * The spanning tree Raymond's algorithm runs on, laid over a view's members by rank (rank 0 = lowest
 * id = the root, where a simulation's token starts). Every shape gives each rank {@code i > 0} a
 * parent of smaller rank, so paths are found by climbing parents.
 *
 * <p>{@link #BINARY} is the one the algorithm uses: the complete binary tree in heap order (parent of
 * rank {@code i} is {@code (i-1)/2}), depth {@code floor(log2 N)} and diameter at most twice that, so a
 * request climbs and the token descends O(log N) edges; every node can compute it from the view alone,
 * so all members agree on it without a message, and a join or leave changes it only near the end of
 * the heap. {@link #CHAIN} and {@link #STAR} exist for docs/algorithms.md's worked claims (RAY-1, RAY-4).
 */
enum TreeShape {

    /** Complete binary tree in heap order. */
    BINARY {
        @Override
        int parent(int rank) {
            return (rank - 1) / 2;
        }
    },
    /** The chain 0 - 1 - ... - (N-1). */
    CHAIN {
        @Override
        int parent(int rank) {
            return rank - 1;
        }
    },
    /** Rank 0 in the centre, every other rank a leaf. */
    STAR {
        @Override
        int parent(int rank) {
            return 0;
        }
    };

    /** The parent of {@code rank} (which is at least 1); always smaller than {@code rank}. */
    abstract int parent(int rank);

    /**
     * The neighbour of {@code from} on the tree path to {@code to} in {@code view} ({@code from} itself
     * when they are equal).
     */
    NodeId nextHop(View view, NodeId from, NodeId to) {
        int a = view.indexOf(from);
        int x = view.indexOf(to);
        if (a == x) {
            return from;
        }
        while (x > a) {
            int p = parent(x);
            if (p == a) {
                return view.member(x); // to is below from: go down toward it
            }
            x = p;
        }
        return view.member(parent(a)); // to is elsewhere: go up
    }

    /** Whether {@code a} and {@code b} are tree neighbours in {@code view}. */
    boolean adjacent(View view, NodeId a, NodeId b) {
        int i = view.indexOf(a);
        int j = view.indexOf(b);
        return i >= 0 && j >= 0 && i != j && (i > 0 && parent(i) == j || j > 0 && parent(j) == i);
    }

    /** The tree's diameter D for {@code n} nodes (the most edges between two nodes). */
    int diameter(int n) {
        if (n <= 1) {
            return 0;
        }
        int[] depth = new int[n];
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            children.add(new ArrayList<>());
        }
        for (int i = 1; i < n; i++) {
            depth[i] = depth[parent(i)] + 1;
            children.get(parent(i)).add(i);
        }
        // height below each node, children have larger ranks: process in decreasing rank
        int[] height = new int[n];
        int best = 0;
        for (int i = n - 1; i >= 0; i--) {
            int first = -1;
            int second = -1;
            for (int c : children.get(i)) {
                int h = height[c] + 1;
                if (h > first) {
                    second = first;
                    first = h;
                } else if (h > second) {
                    second = h;
                }
            }
            height[i] = Math.max(0, first);
            best = Math.max(best, Math.max(0, first) + Math.max(0, second));
        }
        return best;
    }
}
