package io.dlock.mutex.common;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.nio.charset.StandardCharsets;

/**
 * Rendezvous (highest-random-weight) hashing of names over the members of a view: the member that owns a
 * name is the one whose weight for that name is the highest (D. G. Thaler and C. V. Ravishankar, "Using
 * name-based mappings to increase hit rates", IEEE/ACM Transactions on Networking 6(1), 1998). Every member
 * owns about 1/N of all names, and when a member leaves only the names it owned move (each to the member
 * with the next highest weight); when one joins, only the names it now owns move, to it.
 *
 * <p><b>The hash.</b> The weight of {@code (name, member)} is a 64-bit value that depends only on the
 * name's characters and the member's {@link NodeId#value()}, so it is the same on every node, in every JVM and
 * on every run (no {@link String#hashCode()}, no identity hash, no random seed):
 * <ol>
 *   <li>the name hash: 64-bit FNV-1a over the name's UTF-8 bytes (offset basis {@code 0xcbf29ce484222325},
 *       prime {@code 0x100000001b3}), then the 64-bit finalizer of MurmurHash3 ({@code fmix64}) to spread
 *       names that differ only in their last characters over every bit;</li>
 *   <li>the member hash: {@code fmix64(id + 0x9E3779B97F4A7C15)} (the golden-ratio constant keeps id 0 away
 *       from {@code fmix64}'s fixed point 0);</li>
 *   <li>the weight: {@code fmix64(nameHash XOR memberHash)}, compared as an unsigned number; two members with
 *       the same weight (probability 2^-64) are ordered by id, the higher first.</li>
 * </ol>
 * Changing any of these constants changes the owner of most names on a mixed-version cluster, whose members
 * would then disagree about it: treat them as part of the wire format.
 *
 * <p>Pure and stateless; safe from any thread.
 */
public final class RendezvousHash {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private RendezvousHash() {
    }

    /** The member of {@code view} that owns {@code name}: the one with the highest {@link #weight}. */
    public static NodeId owner(String name, View view) {
        long nameHash = nameHash(name);
        NodeId best = null;
        long bestWeight = 0;
        for (NodeId member : view.members()) {
            long w = weight(nameHash, member);
            // members ascend by id, so on equal weights (>=) the higher id wins
            if (best == null || Long.compareUnsigned(w, bestWeight) >= 0) {
                best = member;
                bestWeight = w;
            }
        }
        return best;
    }

    /** Step 1 of the class comment: the name's 64-bit hash. */
    public static long nameHash(String name) {
        long h = FNV_OFFSET;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= FNV_PRIME;
        }
        return fmix64(h);
    }

    /** Step 3 of the class comment: the weight of {@code member} for the name whose {@link #nameHash} is given. */
    public static long weight(long nameHash, NodeId member) {
        return fmix64(nameHash ^ fmix64(member.value() + GOLDEN));
    }

    /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
