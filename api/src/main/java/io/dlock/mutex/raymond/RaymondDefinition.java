package io.dlock.mutex.raymond;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import java.util.Set;

/**
 * Registry entry for {@linkplain Raymond Raymond's tree algorithm} (docs/algorithms.md A8) over the complete
 * binary tree of the view's members in id order: at most 2D messages per entry (D the tree's
 * diameter, at most {@code 2 floor(log2 N)}), O(log N) on average, about 4 under heavy load;
 * synchronization delay at most D·T; FIFO not required. No options.
 */
public final class RaymondDefinition extends AbstractMutexProtocolDefinition<RaymondMessage> {

    /** The configuration name. */
    public static final String NAME = "raymond";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public RaymondDefinition() {
        super(NAME, ProtocolFamily.TOKEN, false, Set.of(), new RaymondCodec(), "<= 2D, avg O(log N)");
    }

    /** The diameter D of the tree the algorithm uses for {@code n} members (bounds: 2D messages per entry). */
    public static int treeDiameter(int n) {
        return TreeShape.BINARY.diameter(n);
    }

    /** The depth of that tree for {@code n} members: {@code floor(log2 n)}. */
    public static int treeDepth(int n) {
        return 31 - Integer.numberOfLeadingZeros(Math.max(1, n));
    }

    /** @throws IllegalArgumentException if an option is set (there are none) */
    @Override
    public MutexProtocol<RaymondMessage> create(ProtocolContext<RaymondMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new Raymond(context, TreeShape.BINARY);
    }

    /**
     * Not exact (it depends on who requests after whom): {@code min(4, 2D)}, Raymond's heavy-load
     * figure (about 4 per entry) capped by the bound 2D; 0 for one node. That is the regime of the
     * simulator's default workloads (measured 3.0 to 3.9 for N = 8 to 256). Under light load, when
     * requests rarely overlap, the average is the round trip between random nodes of the tree,
     * O(log N): measured about 2.5 log2 N (13.2 for N = 64, 20.5 for N = 256). Tests check the bound
     * 2D per entry (docs/algorithms.md RAY-3), not this figure.
     */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return n == 1 ? 0 : Math.min(4, 2 * treeDiameter(n));
    }

    /** Under heavy load the token usually moves one edge between entries: T (at most D·T). */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }
}
