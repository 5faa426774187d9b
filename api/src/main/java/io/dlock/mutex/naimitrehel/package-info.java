/**
 * Naimi-Trehel mutual exclusion (notes S3, docs/algorithms.md A9): a token moves along a dynamic tree whose
 * edges are the {@code LAST} pointers; a request follows them to the root and reverses them
 * (path reversal), and the waiting requesters form a distributed queue through the {@code NEXT}
 * pointers. O(log N) messages per entry on average. Includes the source notes' recovery from a lost token
 * or a crashed holder: Twait and Telec timeouts, the waiting, consulting, query, candidate and
 * observer states, and the election of the smallest candidate, which regenerates the token.
 * The registry entry is {@link io.dlock.mutex.naimitrehel.NaimiTrehelDefinition}.
 */
package io.dlock.mutex.naimitrehel;
