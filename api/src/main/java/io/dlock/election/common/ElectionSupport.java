package io.dlock.election.common;

import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.List;

/** Ring arithmetic shared by the election algorithms. */
public final class ElectionSupport {

    private ElectionSupport() {
    }

    /**
     * The number of phases K of Franklin's and Peterson's algorithms on a ring whose members, in ring
     * order, are {@code ring} (docs/algorithms.md B5, B6): in a phase with m &ge; 2 active values, exactly the
     * local maxima of the cyclic sequence of active values survive (Franklin: the node itself;
     * Peterson: its value, moved one active position on, which keeps the cyclic order); the last
     * phase has one active value. K &le; &lfloor;log2 n&rfloor; + 1.
     */
    public static int phases(List<NodeId> ring) {
        List<NodeId> active = new ArrayList<>(ring);
        int k = 1;
        while (active.size() > 1) {
            int m = active.size();
            List<NodeId> survivors = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                NodeId v = active.get(i);
                NodeId left = active.get((i - 1 + m) % m);
                NodeId right = active.get((i + 1) % m);
                if (v.compareTo(left) > 0 && v.compareTo(right) > 0) {
                    survivors.add(v);
                }
            }
            active = survivors;
            k++;
        }
        return k;
    }

    /** The largest id of {@code ids}, which must not be empty. */
    public static NodeId max(List<NodeId> ids) {
        NodeId best = ids.get(0);
        for (NodeId id : ids) {
            if (id.compareTo(best) > 0) {
                best = id;
            }
        }
        return best;
    }
}
