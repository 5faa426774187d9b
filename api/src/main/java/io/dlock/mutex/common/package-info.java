/**
 * Building blocks that more than one mutual-exclusion algorithm needs, kept here once instead of
 * being copied into each algorithm package.
 *
 * <ul>
 *   <li>{@link io.dlock.mutex.common.Permissions}: the set of other members that have answered the
 *       current request (Ricart-Agrawala's replies, Lamport's acks), checked against the current view
 *       and used after a view change to find whom to ask again.</li>
 *   <li>{@link io.dlock.mutex.common.FencedMutexProtocol}: the base class of every algorithm, which keeps
 *       the highest fencing token a node has seen and the rule for issuing the next one.</li>
 *   <li>{@link io.dlock.mutex.common.TokenCensus}, with {@link io.dlock.mutex.common.CensusReport},
 *       {@link io.dlock.mutex.common.CensusOutcome}, {@link io.dlock.mutex.common.CensusMessage},
 *       {@link io.dlock.mutex.common.CensusCarrier}, {@link io.dlock.mutex.common.EffectsCensusPort} and
 *       {@link io.dlock.mutex.common.CensusCodec}: the token census every token algorithm runs after a
 *       view change and when its instance is created lazily: the steward (lowest member) collects who
 *       holds the token and keeps exactly one, regenerating it with a fence above every reported one
 *       if it was lost with the old epoch. Each algorithm carries the four census messages in one
 *       record of its own message type, {@code Census(CensusMessage message)}.</li>
 *   <li>{@link io.dlock.mutex.common.EpochBarrier} and {@link io.dlock.mutex.common.PeerState}: the epoch
 *       barrier of the algorithms whose grants depend on every member's state (Maekawa, Raynal, the
 *       decentralized vote): after a view change, or when a lock's protocol is created on first use,
 *       every member announces whether it is idle, waiting or holding, and nobody grants in the new
 *       epoch before every member has announced.</li>
 *   <li>{@link io.dlock.mutex.common.EpochRoster}: the bookkeeping the census, the barrier and
 *       Centralized's sync share: the current view, the members that still owe their state, and the
 *       step this node owes at its first event.</li>
 *   <li>{@link io.dlock.mutex.common.RendezvousHash}: which member of a view owns a lock name
 *       (highest-random-weight hashing, the same on every member): Centralized's per-name coordinator.</li>
 *   <li>Compact collections of node ids, for state that every live lock keeps on every node:
 *       {@link io.dlock.mutex.common.NodeSet} and {@link io.dlock.mutex.common.NodeLongMap} (sorted, in an inline
 *       word or one {@code long[]} through {@link io.dlock.mutex.common.SortedLongRecords}, whatever the ids' size),
 *       {@link io.dlock.mutex.common.NodeQueue} (a FIFO of ids, no array while empty) and
 *       {@link io.dlock.mutex.common.RequestQueue} (requests in timestamp order, made at the first).</li>
 * </ul>
 *
 * <p><b>Memory.</b> A node keeps one instance per live lock name, so the algorithms and these blocks keep what a
 * lock at rest needs and nothing else: collections are made when first needed and dropped when empty, a census
 * or a barrier keeps its bookkeeping only while it runs, and values every instance shares (settings, quorums,
 * Raynal's attributes) are shared. docs/results/log.md gives the bytes per live name per node.
 *
 *
 * <h2>Collecting state after a view change</h2>
 *
 * Three mechanisms rebuild an algorithm's state in a new epoch (messages of the old one are lost),
 * each named by one word: <em>census</em> for the token algorithms, <em>barrier</em> for the
 * permission algorithms that need every member's state, <em>sync</em> for Centralized. All three keep
 * their bookkeeping in an {@link io.dlock.mutex.common.EpochRoster}. N is the size of the new view;
 * none of these messages counts as per-entry cost.
 *
 * <table class="striped">
 *   <caption>The three view-change state collections</caption>
 *   <thead>
 *     <tr><th scope="col"></th><th scope="col">census ({@link io.dlock.mutex.common.TokenCensus})</th>
 *         <th scope="col">barrier ({@link io.dlock.mutex.common.EpochBarrier})</th>
 *         <th scope="col">sync (Centralized)</th></tr>
 *   </thead>
 *   <tbody>
 *     <tr><th scope="row">who collects</th><td>the steward: the lowest member</td>
 *         <td>every member (each is an arbiter, coordinator or voter)</td>
 *         <td>the coordinator: the name's rendezvous owner, or (option {@code coordinator=leader}) the elected
         leader, else the highest member</td></tr>
 *     <tr><th scope="row">from whom</th><td>every other member: a REPORT (holds the token, in the CS,
 *         fences, request number)</td><td>every other member: its STATE (idle, waiting, holding;
 *         fence)</td><td>every other member: a SYNC (its request, its state, the highest fence)</td></tr>
 *     <tr><th scope="row">when it runs</th><td>every view change; the first event of an instance
 *         created on first use (HELLO to the steward)</td><td>every view change; the first event of an
 *         instance created on first use</td><td>every view change, and a change of coordinator
 *         that the election reports; the coordinator's first event if created on first use</td></tr>
 *     <tr><th scope="row">what it decides</th><td>who holds the one token (keeps it, or the steward
 *         regenerates it), and a fence floor, sent to all in DONE</td><td>nothing centrally: each
 *         member rebuilds its own view (holder, waiting requests) and grants nothing before every
 *         STATE is in</td><td>the coordinator's queue, holder and fence counter; no grant before every
 *         SYNC is in</td></tr>
 *     <tr><th scope="row">message cost</th><td>3(N-1): QUERY, REPORT, DONE; plus one HELLO per member
 *         created lazily or unsure the steward has an instance</td><td>N(N-1) STATE</td>
 *         <td>2(N-1): SYNC_QUERY, SYNC</td></tr>
 *     <tr><th scope="row">used by</th><td>token-ring, suzuki-kasami, raymond, naimi-trehel, ctta</td>
 *         <td>maekawa, raynal, decentralized</td><td>centralized</td></tr>
 *   </tbody>
 * </table>
 *
 * <p>Like the algorithms, these classes are plain single-threaded state with no I/O; each protocol
 * instance owns its own copies (what is shared is immutable). They are candidates for {@code io.dlock.protocol} once a second
 * algorithm family needs them.
 */
package io.dlock.mutex.common;
