package io.dlock.mutex.decentralized;

import io.dlock.mutex.common.EpochBarrier;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeLongMap;
import io.dlock.mutex.common.NodeSet;
import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.decentralized.DecentralizedMessage.Deny;
import io.dlock.mutex.decentralized.DecentralizedMessage.Grant;
import io.dlock.mutex.decentralized.DecentralizedMessage.Release;
import io.dlock.mutex.decentralized.DecentralizedMessage.Request;
import io.dlock.mutex.decentralized.DecentralizedMessage.State;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.SplittableRandom;

/**
 * Decentralized majority voting: the lock is replicated on every member, each member's replica
 * coordinator votes for one client attempt at a time and answers every request at once (GRANT or
 * DENY, never queued); a client enters with at least {@code m > N/2} votes, otherwise it returns the
 * votes it got and retries after a random exponential back-off.
 *
 * <p><b>Source.</b> Source notes S0 (docs/algorithms.md §0.6) names the algorithm only
 * ("非集中アルゴリズム", DHT-based); the rules are docs/algorithms.md A2's GAP-FILL, Tanenbaum and van Steen's
 * simplified form of Lin, Lian, Chen and Zhang, "A Practical Distributed Mutual Exclusion Protocol
 * in Dynamic Peer-to-Peer Systems", IPTPS 2004 (docs/algorithms.md Part D F1).
 *
 * <p><b>What it guarantees.</b> ME1 as long as no coordinator forgets a vote: two clients would each
 * need {@code m > N/2} of the N votes, and a coordinator votes for one attempt at a time. No deadlock
 * (nobody keeps votes while waiting). <b>Not guaranteed:</b> starvation freedom and progress under
 * contention (every contender may get fewer than m votes and back off again: livelock, made unlikely
 * but not impossible by the random back-off); and ME1 when a coordinator restarts and forgets the
 * vote it gave ("amnesia"): then a second client can collect m votes while the first holds, with the
 * probability of {@link DecentralizedDefinition#violationProbability} (at least {@code 2m - N} of
 * the first client's voters must reset). dlock's runtime never resets a coordinator silently: a
 * member that restarts comes back as a new view member, and the epoch barrier below rebuilds every vote.
 *
 * <p><b>Assumptions.</b> Reliable within an epoch; FIFO not required; replicas = the members of the
 * current view (the DHT's {@code coord[0..N-1]}); randomness only for the back-off, from the
 * {@linkplain ProtocolContext#random protocol context's random source}: forked from the run's seed in
 * a simulation (so a run replays from its seed and two seeds draw different back-offs), seeded with
 * (option {@code seed}, node id) where the driver gives no seed (the runtime), as docs/algorithms.md 0.3
 * prescribes.
 *
 * <p><b>Cost.</b> An entry that needs attempts {@code 1..k} costs {@code Σ_a (2(N-1) + g_a)}
 * messages, {@code g_a} the GRANTs from other members in attempt a (every GRANT is returned by one
 * RELEASE): {@code 3(N-1)} without contention. This is docs/algorithms.md's {@code Σ(2N + g_a)} and
 * {@code 3N} with the client's own replica handled locally (self-messages are not counted).
 * Synchronization delay unbounded (back-off); 2T per attempt.
 *
 * <p><b>Deviations from docs/algorithms.md A2.</b>
 * <ul>
 *   <li>Rule 9 is on by default (option {@code reply-timeout-ms}): an attempt that has not heard
 *       from every replica after that long counts the missing replies as DENY and decides, so a
 *       crashed replica that is still in the view (its crash not yet detected) does not block every
 *       attempt; a late GRANT is returned at once like any vote for an attempt that is not
 *       current.</li>
 *   <li>Every member is both a client and a replica coordinator; the client's own vote is local.</li>
 *   <li>A coordinator remembers the newest attempt it has seen per client and ignores older or
 *       duplicated REQUESTs; a client returns a GRANT for an attempt that is not current at once
 *       (RELEASE), so a late duplicate never strands a vote.</li>
 *   <li>Fencing tokens: GRANT carries the coordinator's highest token and RELEASE the client's; a
 *       client entering takes one more than the highest it has seen. Two consecutive holders share a
 *       voter, which voted for the second after the first's RELEASE.</li>
 *   <li>Courtesy (docs/algorithms.md A2 rule 10): a client that held the CS while its own replica refused another
 *       client's request waits a short back-off ({@code 1 .. B}) before the first attempt of its next request,
 *       unless its replica has voted for another client meanwhile. Without it, the holder's next request (sent
 *       with its RELEASE when a local thread waits) reached every replica before any refused client's retry, and
 *       one node kept the lock for as long as it had threads waiting (5 in-memory nodes with 2 threads each:
 *       42 110 entries to 0 in 90 s; on 5 namespace hosts for minutes). An uncontended client never waits.</li>
 *   <li>Ageing (rule 11): REQUEST carries the attempt's number within its request ({@code tries}). A replica
 *       that refuses a request keeps its next free vote for the refused client with the most tries (a
 *       reservation, said in the DENY), and gives it to that client or to a request with at least as many tries;
 *       a client refused by a replica that keeps its vote for it retries after {@code 1 .. B} instead of its
 *       exponential window. The reservation ends when served, at a view change, or when its client has not come
 *       back within the reply timeout + 4B. Exponential back-off alone favours the newest contenders: with 5
 *       in-memory nodes of 2 threads (holds of 1 and 5 ms) the longest wait for the lock was 9.4 and 12.9 s
 *       before and 0.4 to 1.3 s with rules 10 and 11. No message is added; a DENY carries one more byte. The cap
 *       of the exponential window's exponent, 10 in docs/algorithms.md A2, is the option
 *       {@code backoff-cap}.</li>
 *   <li>View changes and start on first use: the {@link EpochBarrier}. Each member announces its
 *       state; coordinators forget their votes and DENY every request until every member has
 *       announced, then vote for the announced holder (if any), which releases every member after
 *       its CS. A client whose attempt was cut by the view change backs off and retries.</li>
 * </ul>
 */
final class Decentralized extends FencedMutexProtocol<DecentralizedMessage> {

    /*
     * Overview.
     *
     * Client state: state (IDLE, TRYING, BACKOFF, HOLDING); attempt (never reset); tries (attempts
     * of the current request); tally (AttemptTally, while TRYING): replied / granted (members that
     * answered / voted for the current attempt); voters (members holding a vote for us that we must release: granted, or every
     * member after an epoch barrier in which we announced HOLDING).
     * Coordinator state: holder (client and attempt we voted for, or null); seen (per client, the
     * newest attempt seen); released (per client, the newest attempt released); announcedHolder.
     *
     * Invariants:
     *  - A coordinator votes for at most one attempt at a time (holder), and never while the barrier
     *    holds: ME1 follows from m > N/2 (m is computed from the current view).
     *  - A client is HOLDING only after m GRANTs for its current attempt, or across an epoch barrier in
     *    which every coordinator voted for it.
     *  - Every vote given to a client is returned by one RELEASE: after a failed attempt (rule 4),
     *    after the CS (rule 6), or at once if it answers an attempt that is no longer current.
     *  - The client waits for a reply from every member before deciding (decision in docs/algorithms.md), or until
     *    the reply timeout (rule 9); replies carry the attempt number, so the replies of one attempt
     *    never mix with another's, and a late GRANT is released at once.
     */

    /** Timer name of the back-off between attempts. */
    static final String BACKOFF = "backoff";
    /** Timer name of the reply timeout of an attempt (docs/algorithms.md A2 rule 9). */
    static final String REPLY = "reply";
    /** Timer name of the end of a coordinator's reservation (the ageing rule, docs/algorithms.md A2 rule 11). */
    static final String RESERVE = "reserve";

    private enum Phase { IDLE, TRYING, BACKOFF, HOLDING }

    private final NodeId self;
    private final MutexEffects<DecentralizedMessage> effects;
    /** The options, shared with every lock created with the same ones. */
    private final DecentralizedSettings settings;
    /**
     * The back-off's random source, made at the first draw ({@link #random()}) from the seed it would have had if
     * made with the protocol, so the draws are the same; an uncontended lock never draws, and keeps none.
     */
    private SplittableRandom random;
    private final EpochBarrier barrier;
    private View view;

    // client
    private Phase phase = Phase.IDLE;
    private long attempt;
    private int tries;
    /**
     * This replica refused another client's request while this client held the CS, and has not voted for another
     * client since: the next request first waits a short back-off (the courtesy rule, see the class comment).
     */
    private boolean courtesyOwed;
    /** The replies to the current attempt; null unless {@link Phase#TRYING}. */
    private AttemptTally tally;
    private final NodeSet voters = new NodeSet();

    // coordinator
    private NodeId holder;
    private long holderAttempt;
    /** Per client, the newest attempt seen: looked up on every REQUEST (absent reads as 0). */
    private final NodeLongMap seen = new NodeLongMap();
    private final NodeLongMap released = new NodeLongMap();
    private NodeId announcedHolder;
    private long announcedAttempt;
    /**
     * The ageing rule: the refused client with the most attempts in its current request, for whom this
     * coordinator keeps its next free vote (only requests with at least {@link #reservedTries} attempts get it);
     * null if none.
     */
    private NodeId reserved;
    private int reservedTries;

    /** @param settings the options (shared by every lock created with the same ones) */
    Decentralized(ProtocolContext<DecentralizedMessage> context, DecentralizedSettings settings) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.view = context.view();
        this.settings = settings;
        this.barrier = new EpochBarrier(self, view, context.startsIdle());
        if (!context.startsIdle()) {
            enterFenceEpoch(view.epoch());
        }
    }

    /** The settings this protocol was created with (for tests). */
    DecentralizedSettings settings() {
        return settings;
    }

    /** The back-off's random source, made at the first draw (forked from the run's seed in a simulation). */
    private SplittableRandom random() {
        if (random == null) {
            random = settings.randomOf(self);
        }
        return random;
    }

    /** Votes needed in {@code v}: the option clamped to a strict majority at least and N at most. */
    int votesNeeded(View v) {
        int n = v.size();
        int majority = n / 2 + 1;
        int quorumOption = settings.quorumOption();
        return quorumOption <= 0 ? majority : Math.max(majority, Math.min(quorumOption, n));
    }

    // ---- client -------------------------------------------------------------------------------

    @Override
    public void onRequest() {
        announceIfDue();
        if (phase != Phase.IDLE) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        tries = 0;
        if (courtesyOwed) {
            phase = Phase.BACKOFF; // the courtesy rule: the refused clients, which retry soon (rule 11), go first
            effects.setTimer(BACKOFF, backoff(0));
            courtesyOwed = false;
            return;
        }
        startAttempt(); // rule 1
    }

    /** A back-off after {@code failures} failed attempts: uniform in {@code 1 .. B·2^min(failures, cap)}. */
    private long backoff(int failures) {
        int exponent = Math.min(failures, settings.backoffCap());
        long backoffBase = settings.backoffBase();
        long bound = backoffBase > (Long.MAX_VALUE >> 1) >> exponent ? Long.MAX_VALUE >> 1 : backoffBase << exponent;
        return random().nextLong(Math.max(1, bound)) + 1;
    }

    /** Rule 2: a new attempt asks every coordinator (our own locally). */
    private void startAttempt() {
        attempt++;
        tries++;
        tally = new AttemptTally();
        phase = Phase.TRYING;
        effects.broadcast(new Request(attempt, tries));
        if (settings.replyTimeout() > 0 && view.size() > 1) {
            effects.setTimer(REPLY, settings.replyTimeout()); // rule 9
        }
        Vote own = coordinatorVote(self, attempt, tries);
        onReply(self, own == Vote.GRANT, own == Vote.RESERVED, highestFence());
    }

    /** Rule 4: count a reply to the current attempt; decide when every member has answered. */
    private void onReply(NodeId from, boolean grant, boolean reservedVote, long fence) {
        observeFence(fence);
        if (!tally.replied.add(from)) {
            return;
        }
        tally.reservedForUs |= reservedVote;
        if (view.contains(from)) {
            tally.repliedMembers++;
        }
        if (grant) {
            tally.granted.add(from);
            voters.add(from);
        }
        if (tally.repliedMembers < view.size()) {
            return; // some member of the view has not answered
        }
        decide();
    }

    /** Rule 4's decision, with every reply in or (rule 9) the missing ones counted as DENY. */
    private void decide() {
        if (settings.replyTimeout() > 0) {
            effects.cancelTimer(REPLY);
        }
        AttemptTally decided = tally;
        tally = null;
        if (decided.granted.size() >= votesNeeded(view)) {
            phase = Phase.HOLDING;
            effects.granted(nextFence());
        } else {
            returnVotes();
            phase = Phase.BACKOFF;
            // a coordinator keeps its vote for us (rule 11): ask again soon, whatever the failures so far
            effects.setTimer(BACKOFF, backoff(decided.reservedForUs ? 0 : tries));
        }
    }

    @Override
    public void onTimer(String name) {
        announceIfDue();
        if (BACKOFF.equals(name) && phase == Phase.BACKOFF) {
            startAttempt(); // rule 5
        } else if (REPLY.equals(name) && phase == Phase.TRYING) {
            decide(); // rule 9: a replica that did not answer (crashed, still in the view) counts as DENY
        } else if (RESERVE.equals(name)) {
            reserved = null; // the reserved client did not come back in time (rule 11)
        }
    }

    /**
     * At rest: the client is idle (not trying, not backing off, not holding), the coordinator's vote is not
     * given to anyone, and the epoch barrier is complete (or this instance has handled no event).
     */
    @Override
    public boolean atRest() {
        return phase == Phase.IDLE && holder == null && barrier.settled();
    }

    @Override
    public void onRelease() {
        announceIfDue();
        if (phase != Phase.HOLDING) {
            throw new IllegalStateException(self + " does not hold the lock");
        }
        // rule 6: give every vote back
        phase = Phase.IDLE;
        returnVotes();
    }

    private void returnVotes() {
        for (NodeId voter : voters) {
            if (voter.equals(self)) {
                coordinatorRelease(self, attempt, highestFence());
            } else {
                effects.send(voter, new Release(attempt, highestFence()));
            }
        }
        voters.clear();
    }

    // ---- coordinator ------------------------------------------------------------------------------

    /** A coordinator's answer to a request. */
    private enum Vote { GRANT, DENY, RESERVED }

    /**
     * Rule 3: vote for the attempt if our vote is free, else refuse; never queue. Rule 11 (ageing): a free vote
     * goes only to the reserved client or to a request with at least as many attempts; a refused request with
     * more attempts than the reserved one (or the first refused) becomes the reservation.
     */
    private Vote coordinatorVote(NodeId client, long a, int clientTries) {
        if (a <= seen.getOrDefault(client, 0L)) {
            boolean again = holder != null && holder.equals(client) && holderAttempt == a; // a duplicate
            return again ? Vote.GRANT : Vote.DENY;
        }
        seen.put(client, a);
        // A newer attempt of the client we voted for: it is done with the older one, and keeps the vote even past a
        // reservation, since its RELEASE (which carries its fencing token to this replica) may still be on its way.
        boolean voteWasClients = holder != null && holder.equals(client);
        if (voteWasClients) {
            holder = null;
        }
        boolean admitted = voteWasClients || reserved == null || reserved.equals(client) || clientTries >= reservedTries;
        if (holder == null && barrier.isComplete() && admitted) {
            holder = client;
            holderAttempt = a;
            if (reserved != null && (reserved.equals(client) || clientTries >= reservedTries)) {
                reserved = null; // served: the reserved client or one that has waited as long
                effects.cancelTimer(RESERVE);
            } // else: a newer attempt of the vote's holder kept the vote; the reservation stands
            if (!client.equals(self)) {
                courtesyOwed = false; // another client got this replica's vote: the courtesy is paid
            }
            return Vote.GRANT;
        }
        if (phase == Phase.HOLDING && !client.equals(self)) {
            courtesyOwed = true;
        }
        return reserve(client, clientTries) ? Vote.RESERVED : Vote.DENY;
    }

    /**
     * Rule 11: keeps the next free vote for {@code client} if it has waited longest of those refused; true if
     * the reservation is now the client's. It ends when the client gets the vote, at a view change, or when the
     * client has not come back within {@link #reservationMillis}.
     */
    private boolean reserve(NodeId client, int clientTries) {
        if (reserved != null && !reserved.equals(client) && clientTries <= reservedTries) {
            return false;
        }
        reserved = client;
        reservedTries = clientTries;
        effects.setTimer(RESERVE, reservationMillis());
        return true;
    }

    /**
     * How long a reservation waits for its client's next attempt: the client decides after every reply or at the
     * reply timeout (100 B where none is set), then backs off at most B; 4B leave room for the message's way.
     */
    private long reservationMillis() {
        long decide = settings.replyTimeout() > 0 ? settings.replyTimeout() : 100 * settings.backoffBase();
        return decide + 4 * settings.backoffBase();
    }

    /** Rule 7. */
    private void coordinatorRelease(NodeId client, long a, long fence) {
        observeFence(fence);
        released.mergeMax(client, a);
        seen.mergeMax(client, a);
        if (holder != null && holder.equals(client) && holderAttempt <= a) {
            holder = null;
        }
        if (announcedHolder != null && announcedHolder.equals(client) && announcedAttempt <= a) {
            announcedHolder = null;
        }
    }

    // ---- events -------------------------------------------------------------------------------

    @Override
    public void onMessage(NodeId from, DecentralizedMessage message) {
        announceIfDue();
        if (message instanceof Request r) {
            Vote vote = coordinatorVote(from, r.attempt(), r.tries());
            effects.send(from, vote == Vote.GRANT ? new Grant(r.attempt(), highestFence())
                    : new Deny(r.attempt(), vote == Vote.RESERVED));
        } else if (message instanceof Grant g) {
            if (phase == Phase.TRYING && g.attempt() == attempt) {
                onReply(from, true, false, g.fence());
            } else if (phase == Phase.HOLDING && g.attempt() == attempt) {
                observeFence(g.fence());
                voters.add(from); // a vote that came after the reply timeout decided: returned at exit
            } else {
                observeFence(g.fence());
                effects.send(from, new Release(g.attempt(), highestFence())); // a vote we do not use
            }
        } else if (message instanceof Deny d) {
            if (phase == Phase.TRYING && d.attempt() == attempt) {
                onReply(from, false, d.reserved(), 0);
            }
        } else if (message instanceof Release r) {
            coordinatorRelease(from, r.attempt(), r.fence());
        } else if (message instanceof State s) {
            observeFence(s.fence());
            if (barrier.record(from)) {
                applyState(from, s);
                finishBarrierIfComplete();
            }
        }
    }

    @Override
    public void onView(View newView) {
        view = newView;
        enterFenceEpoch(newView.epoch());
        barrier.startEpoch(newView);
        seen.removeKeysIf(m -> !newView.contains(m));
        released.removeKeysIf(m -> !newView.contains(m));
        holder = null; // votes are rebuilt from the announcements
        announcedHolder = null;
        if (reserved != null) {
            reserved = null; // the barrier rebuilds the votes; requests start over
            effects.cancelTimer(RESERVE);
        }
        courtesyOwed = false; // owed to clients of the old view
        voters.clear(); // coordinators forget their votes; a holder gets every member's below
        if (phase == Phase.TRYING) {
            // the replies of this attempt may be lost: give up and retry after a back-off
            if (settings.replyTimeout() > 0) {
                effects.cancelTimer(REPLY);
            }
            phase = Phase.BACKOFF;
            tally = null;
            effects.setTimer(BACKOFF, random().nextLong(Math.max(1, settings.backoffBase())) + 1);
        }
        announce();
        finishBarrierIfComplete();
    }

    // ---- epoch barrier -----------------------------------------------------------------------------

    private void announceIfDue() {
        if (barrier.takeFirstEventDue()) {
            announce();
        }
    }

    private void announce() {
        PeerState s = phase == Phase.HOLDING ? PeerState.HOLDING
                : phase == Phase.IDLE ? PeerState.IDLE : PeerState.WAITING;
        State state = new State(attempt, s, highestFence());
        effects.broadcast(state);
        applyState(self, state);
        if (s == PeerState.HOLDING) {
            view.members().forEach(voters::add); // every coordinator will vote for us
        }
    }

    private void applyState(NodeId member, State s) {
        observeFence(s.fence());
        seen.raise(member, s.attempt()); // an idle member that never asked (attempt 0) reads as 0 without an entry
        if (s.state() == PeerState.HOLDING && announcedHolder == null
                && s.attempt() > released.getOrDefault(member, 0L)) {
            announcedHolder = member; // two holders can only be announced after a partition
            announcedAttempt = s.attempt();
        }
    }

    private void finishBarrierIfComplete() {
        if (barrier.isComplete() && announcedHolder != null) {
            holder = announcedHolder;
            holderAttempt = announcedAttempt;
            announcedHolder = null;
        }
    }

    @Override
    public String toString() {
        return "Decentralized[" + self + " " + phase + " attempt=" + attempt + " tries=" + tries + " "
                + (tally == null ? new AttemptTally() : tally) + " voters=" + voters + " | holder=" + holder + "/" + holderAttempt
                + " " + barrier + "]";
    }
}
