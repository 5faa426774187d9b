package io.dlock.reclaim;

import io.dlock.reclaim.ReclaimMessage.Answer;
import io.dlock.reclaim.ReclaimMessage.Decide;
import io.dlock.reclaim.ReclaimMessage.Freeze;
import io.dlock.reclaim.ReclaimMessage.Inquire;
import io.dlock.reclaim.ReclaimMessage.Nominate;
import io.dlock.reclaim.ReclaimMessage.Vote;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cluster-wide reclamation of idle lock state: one node's half of the protocol that decides, for a batch of
 * lock names, that every member drops its state for them at once. A pure state machine: no threads, no clock,
 * no I/O; it acts only through its {@link Port}, so the runtime and the simulator run the same code.
 *
 * <h2>Why a round, and not a local eviction</h2>
 * A lock's state on one node is not the node's alone: other members keep numbers about it (request numbers,
 * clocks, votes lent, the token's last holder). Dropping it on one node while the others keep theirs would
 * break the algorithm (a fresh node may number its requests below what the others recorded, or request with a
 * clock that ignores a reply it gave). So the state is dropped only in a global state in which the lock is idle
 * everywhere and no message of it is in flight; the lock's next use then starts from nothing on every member,
 * as a lock used for the first time does (docs/algorithms.md R1-R4).
 *
 * <h2>Protocol</h2>
 * <ul>
 *   <li>The <em>steward</em> is the lowest member of the current view. A member whose lock has been unused
 *       for the idle expiry {@linkplain #nominate nominates} it; a member other than the steward sends
 *       NOMINATE. The steward batches nominated names into rounds, one round at a time, at most
 *       {@link #MAX_NAMES_PER_ROUND} names each.</li>
 *   <li>FREEZE goes to every other member; every member, the steward too, {@linkplain Port#freeze freezes}
 *       each lock that is at rest there and takes its {@link LockVote}: at rest or not, the highest fencing
 *       token, and the lock's messages sent to and received from each member in this epoch. A frozen lock
 *       handles no event (message, request, view) until the decision; they wait. VOTE goes to the steward.</li>
 *   <li>With every member's vote, the steward commits each lock that every member voted at rest and whose
 *       counters match pairwise (what a sent to b equals what b received from a: nothing in flight; sends
 *       after a vote are impossible, the lock being frozen, and sends before it are counted). It records the
 *       commit, applies it, and sends DECIDE with the committed names and the fencing floor (the highest
 *       token of any committed lock in any vote) to every other member. Each member drops the committed
 *       locks' state, raises its floor, and thaws the rest.</li>
 *   <li><b>View change.</b> Messages of an older epoch are dropped by the driver, so a round ends with its
 *       epoch. The steward abandons an undecided round (thaws its own locks). A member that voted and heard no
 *       decision cannot tell whether the steward committed before the change: it keeps the locks frozen and
 *       sends INQUIRE to every member of the new view; each answers whether it applied a commit of that round
 *       (a member remembers its last {@link #COMMIT_LOG} commits). If any did, the member commits too (with
 *       the floor from the answer); if none did, no surviving member dropped the state, and it thaws. Until
 *       it has every answer of the current view it stays frozen; another view change restarts the inquiry.
 *       A member alone in its view thaws.</li>
 * </ul>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Within an epoch, the members that apply a round apply the same decision: only the steward decides,
 *       once; DECIDE reaches every member of the epoch (transports are reliable within a view).</li>
 *   <li>Across a view change, the members of the new view converge: a committed member answers every
 *       inquiry with "committed", and a member that installed the new view ignores the old epoch's DECIDE,
 *       so the set of committed members is fixed before anyone answers. The one case left: a partition that
 *       separates the steward's committed side from a member that then finds nobody who committed. When the
 *       partition heals, that member holds the lock's old state and the others none, in a later epoch,
 *       which is the situation of a member that restarted under its old id (the algorithms' view-change
 *       and first-use paths rebuild from it).</li>
 *   <li>Fencing: a committed lock's next tokens exceed all its earlier tokens: every token of the lock was
 *       issued by a member of the round's epoch (earlier epochs are below the epoch's floor), each vote
 *       carries its member's highest, and every member raises its floor to the maximum before the lock's
 *       state is recreated ({@link io.dlock.protocol.ProtocolContext#fencingFloor()}).</li>
 * </ul>
 *
 * <h2>Cost</h2>
 * Per round of up to {@value #MAX_NAMES_PER_ROUND} locks: 3(N-1) messages (FREEZE, VOTE, DECIDE), plus one
 * NOMINATE per member that nominates; after a view change, 2(N'-1) per member that must inquire. An idle lock
 * costs nothing once reclaimed.
 *
 * <p>Not thread-safe: confined to one serial event loop.
 */
public final class Reclamation {

    /** Most lock names one round carries. */
    public static final int MAX_NAMES_PER_ROUND = 1024;
    /** Commits a member remembers to answer inquiries. */
    public static final int COMMIT_LOG = 256;

    /** What the protocol does to the world; called only from within its methods. */
    public interface Port {

        /** Sends {@code message} to {@code to}, another member of the current view. */
        void send(NodeId to, ReclaimMessage message);

        /**
         * Freezes every named lock that is at rest here and takes this member's vote on each, in order; the
         * answer comes back through {@link #onLocalVotes} with {@code round} (later or before this returns).
         * A lock voted not at rest is not frozen.
         */
        void freeze(RoundId round, List<String> names);

        /**
         * Drops this member's state for the named locks (each frozen here), raises the node's fencing floor to
         * at least {@code floor}, and thaws them: events that waited go to the lock's next incarnation.
         */
        void commit(List<String> names, long floor);

        /** Thaws the named locks, frozen here: they keep their state; events that waited are handled now. */
        void thaw(List<String> names);
    }

    private final NodeId self;
    private final Port port;
    private View view;

    // Steward state.
    private final Set<String> nominated = new LinkedHashSet<>();
    private long lastRound;
    private StewardRound current;

    // Member state: the rounds this member froze locks for, until their decision.
    private final Map<RoundId, MemberRound> rounds = new LinkedHashMap<>();
    /** The last commits applied here, with their floors, for inquiries; eldest dropped first. */
    private final Map<RoundId, Long> commits = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<RoundId, Long> eldest) {
            return size() > COMMIT_LOG;
        }
    };

    /** The steward's round in progress. */
    private static final class StewardRound {
        final long number;
        final List<String> names;
        /** The same names, for the membership test of every nomination that arrives during the round. */
        final Set<String> nameSet;
        final List<NodeId> members;
        final Map<NodeId, List<LockVote>> votes = new HashMap<>();

        StewardRound(long number, List<String> names, List<NodeId> members) {
            this.number = number;
            this.names = names;
            this.nameSet = new HashSet<>(names);
            this.members = members;
        }
    }

    private enum Phase { FREEZING, VOTED, INQUIRING }

    /** A round as one member sees it. */
    private static final class MemberRound {
        final List<String> names;
        final long epoch;
        Phase phase = Phase.FREEZING;
        /** The names this member voted at rest (and froze). */
        List<String> frozen = List.of();
        /** Inquiring: members whose answer is owed; whether one said it committed, and its floor. */
        final Set<NodeId> owed = new HashSet<>();
        boolean committedSomewhere;
        long floor;

        MemberRound(List<String> names, long epoch) {
            this.names = names;
            this.epoch = epoch;
        }
    }

    public Reclamation(NodeId self, View view, Port port) {
        if (!view.contains(self)) {
            throw new IllegalArgumentException("node " + self + " is not a member of its view " + view.members());
        }
        this.self = self;
        this.view = view;
        this.port = port;
    }

    /** The steward of {@code view}: its lowest member. */
    public static NodeId stewardOf(View view) {
        return view.members().get(0);
    }

    private boolean isSteward() {
        return stewardOf(view).equals(self);
    }

    // ---- events ----

    /** These locks have been unused here for the idle expiry: ask the steward to reclaim them. */
    public void nominate(Collection<String> names) {
        if (names.isEmpty()) {
            return;
        }
        if (isSteward()) {
            addNominated(names);
            return;
        }
        List<String> all = List.copyOf(names);
        for (int from = 0; from < all.size(); from += MAX_NAMES_PER_ROUND) {
            port.send(stewardOf(view), new Nominate(all.subList(from, Math.min(all.size(), from + MAX_NAMES_PER_ROUND))));
        }
    }

    /** A message of the current epoch from {@code from} (the driver drops older epochs, holds newer ones). */
    public void onMessage(NodeId from, ReclaimMessage message) {
        if (message instanceof Nominate n) {
            if (isSteward()) {
                addNominated(n.names());
            } // else: a nomination for an earlier steward; the member nominates again after another expiry
        } else if (message instanceof Freeze f) {
            if (from.equals(stewardOf(view))) {
                startFreeze(new RoundId(from, f.round()), f.names());
            }
        } else if (message instanceof Vote v) {
            onVote(from, v.round(), v.votes());
        } else if (message instanceof Decide d) {
            RoundId id = new RoundId(from, d.round());
            MemberRound round = rounds.get(id);
            if (round != null && round.phase == Phase.VOTED) {
                apply(id, round, d.committed(), d.floor());
            }
        } else if (message instanceof Inquire i) {
            Long floor = commits.get(i.round());
            port.send(from, new Answer(i.round(), floor != null, floor == null ? 0 : floor));
        } else if (message instanceof Answer a) {
            onAnswer(from, a);
        }
    }

    /** This member's votes for {@code id}, in the order of its names (see {@link Port#freeze}). */
    public void onLocalVotes(RoundId id, List<LockVote> votes) {
        MemberRound round = rounds.get(id);
        List<String> frozen = new ArrayList<>();
        for (LockVote vote : votes) {
            if (vote.atRest()) {
                frozen.add(vote.name());
            }
        }
        if (round == null || round.phase != Phase.FREEZING || round.epoch != view.epoch()) {
            // the round ended with its epoch before this member voted: nobody can commit without the vote
            rounds.remove(id);
            thaw(frozen);
            return;
        }
        round.frozen = List.copyOf(frozen);
        round.phase = Phase.VOTED;
        if (id.steward().equals(self)) {
            onVote(self, id.number(), votes);
        } else {
            port.send(id.steward(), new Vote(id.number(), votes));
        }
    }

    /** A new view: rounds of the old epoch end; members that voted without a decision inquire. */
    public void onView(View newView) {
        view = newView;
        current = null; // the steward's undecided round ends; its own member round thaws below
        if (!isSteward()) {
            nominated.clear(); // the new steward gets them again when their members nominate again
        }
        for (Iterator<Map.Entry<RoundId, MemberRound>> it = rounds.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<RoundId, MemberRound> e = it.next();
            MemberRound round = e.getValue();
            if (round.phase == Phase.FREEZING) {
                continue; // its votes thaw it when they come (onLocalVotes)
            }
            if (e.getKey().steward().equals(self) && round.phase == Phase.VOTED) {
                it.remove(); // this node was the steward and had not decided: nobody committed
                thaw(round.frozen);
                continue;
            }
            round.phase = Phase.INQUIRING;
            round.owed.clear();
            round.committedSomewhere = false;
            for (NodeId member : newView.members()) {
                if (!member.equals(self)) {
                    round.owed.add(member);
                }
            }
        }
        List<RoundId> resolvedAlone = new ArrayList<>();
        for (Map.Entry<RoundId, MemberRound> e : rounds.entrySet()) {
            MemberRound round = e.getValue();
            if (round.phase != Phase.INQUIRING) {
                continue;
            }
            if (round.owed.isEmpty()) {
                resolvedAlone.add(e.getKey());
            } else {
                for (NodeId member : round.owed) {
                    port.send(member, new Inquire(e.getKey()));
                }
            }
        }
        for (RoundId id : resolvedAlone) {
            resolve(id, rounds.get(id));
        }
        startRoundIfIdle();
    }

    // ---- steward ----

    private void addNominated(Collection<String> names) {
        for (String name : names) {
            if (current == null || !current.nameSet.contains(name)) {
                nominated.add(name);
            }
        }
        startRoundIfIdle();
    }

    private void startRoundIfIdle() {
        if (current != null || nominated.isEmpty() || !isSteward()) {
            return;
        }
        List<String> names = new ArrayList<>(Math.min(nominated.size(), MAX_NAMES_PER_ROUND));
        for (Iterator<String> it = nominated.iterator(); it.hasNext() && names.size() < MAX_NAMES_PER_ROUND; ) {
            names.add(it.next());
            it.remove();
        }
        current = new StewardRound(++lastRound, List.copyOf(names), view.members());
        for (NodeId member : view.members()) {
            if (!member.equals(self)) {
                port.send(member, new Freeze(current.number, current.names));
            }
        }
        startFreeze(new RoundId(self, current.number), current.names);
    }

    private void onVote(NodeId from, long number, List<LockVote> votes) {
        StewardRound round = current;
        if (round == null || round.number != number || !round.members.contains(from)
                || votes.size() != round.names.size()) {
            return;
        }
        round.votes.putIfAbsent(from, votes);
        if (round.votes.size() < round.members.size()) {
            return;
        }
        List<String> committed = new ArrayList<>();
        long floor = 0;
        for (int i = 0; i < round.names.size(); i++) {
            if (reclaimable(round, i)) {
                committed.add(round.names.get(i));
                for (List<LockVote> member : round.votes.values()) {
                    floor = Math.max(floor, member.get(i).fence());
                }
            }
        }
        current = null;
        RoundId id = new RoundId(self, number);
        for (NodeId member : round.members) {
            if (!member.equals(self)) {
                port.send(member, new Decide(number, committed, floor));
            }
        }
        MemberRound own = rounds.get(id);
        if (own != null) {
            apply(id, own, committed, floor);
        }
        startRoundIfIdle();
    }

    /** Whether every member voted lock {@code i} at rest and nothing of it is in flight. */
    private static boolean reclaimable(StewardRound round, int i) {
        for (NodeId a : round.members) {
            LockVote va = round.votes.get(a).get(i);
            if (!va.atRest() || !va.name().equals(round.names.get(i))) {
                return false;
            }
            for (NodeId b : round.members) {
                if (!a.equals(b) && va.sentTo(b) != round.votes.get(b).get(i).receivedFrom(a)) {
                    return false;
                }
            }
        }
        return true;
    }

    // ---- member ----

    private void startFreeze(RoundId id, List<String> names) {
        rounds.put(id, new MemberRound(names, view.epoch()));
        port.freeze(id, names);
    }

    private void apply(RoundId id, MemberRound round, List<String> committed, long floor) {
        rounds.remove(id);
        Set<String> dropped = new HashSet<>(committed);
        List<String> commit = new ArrayList<>();
        List<String> keep = new ArrayList<>();
        for (String name : round.frozen) {
            (dropped.contains(name) ? commit : keep).add(name);
        }
        if (!commit.isEmpty()) {
            commits.put(id, floor);
            port.commit(commit, floor);
        }
        thaw(keep);
    }

    private void onAnswer(NodeId from, Answer answer) {
        MemberRound round = rounds.get(answer.round());
        if (round == null || round.phase != Phase.INQUIRING || !round.owed.remove(from)) {
            return;
        }
        if (answer.committed()) {
            round.committedSomewhere = true;
            round.floor = Math.max(round.floor, answer.floor());
        }
        if (round.owed.isEmpty()) {
            resolve(answer.round(), round);
        }
    }

    /** Every member of the view answered (or there is none): commit if one committed, else thaw. */
    private void resolve(RoundId id, MemberRound round) {
        if (round.committedSomewhere) {
            apply(id, round, round.frozen, round.floor);
        } else {
            rounds.remove(id);
            thaw(round.frozen);
        }
    }

    private void thaw(List<String> names) {
        if (!names.isEmpty()) {
            port.thaw(names);
        }
    }

    /** Rounds this member has frozen locks for and not yet seen decided (for tests and metrics). */
    public int openRounds() {
        return rounds.size();
    }

    /** Whether a round of this steward is collecting votes. */
    public boolean collecting() {
        return current != null;
    }

    @Override
    public String toString() {
        return "Reclamation[" + self + ", epoch " + view.epoch() + ", open rounds " + rounds.size()
                + (current != null ? ", collecting round " + current.number : "") + "]";
    }
}
