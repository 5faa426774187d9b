package io.dlock.protocol;

/** Which links an election algorithm uses (docs/algorithms.md 0.2). */
public enum ElectionTopology {

    /** Anyone sends to anyone (bully). */
    COMPLETE_GRAPH,
    /** Each node sends only to its successor on the ring (LeLann, Chang-Roberts, Peterson, ring with list). */
    UNIDIRECTIONAL_RING,
    /** Each node sends to its successor and its predecessor (Franklin). */
    BIDIRECTIONAL_RING
}
