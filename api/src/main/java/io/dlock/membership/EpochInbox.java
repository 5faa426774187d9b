package io.dlock.membership;

import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The epoch rule for the messages of one lock or election group on one node: which arriving message
 * is delivered now, which waits for a view this node has not installed yet, and which is dropped.
 * The runtime's {@code LockDriver} and {@code ElectionDriver} and the simulator's nodes all decide
 * through it, so the rule is written once and runs under deterministic simulation.
 *
 * <h2>The rule</h2>
 * Every message carries the epoch (view number) its sender was in. Against the epoch installed
 * here ({@link #install}):
 * <ul>
 *   <li><b>older</b>: {@link Verdict#STALE}, dropped: it belongs to a view that is over;</li>
 *   <li><b>the same</b>: {@link Verdict#DELIVER} if the installed view admits the sender (it is a
 *       member, and for an election the view is primary), else {@link Verdict#STALE} (the same epoch
 *       number on the other side of a split, or a view that must not act);</li>
 *   <li><b>newer</b> (the sender installed the view first): {@link Verdict#HELD}, kept until this node
 *       installs that epoch, at most {@code bound} messages; beyond the bound {@link Verdict#FULL},
 *       dropped.</li>
 * </ul>
 * On {@link #install} every held message whose epoch is not newer than the new one leaves the inbox
 * and goes back, in arrival order, to the owner's {@link Replay}, which offers it again: it is
 * then delivered, or dropped as stale; held messages of still newer epochs stay.
 *
 * <h2>Threads, time and logging</h2>
 * None of its own. An inbox is confined to its owner's serial event loop (the simulator's single
 * thread): call every method from there only; it takes no lock and is not safe for concurrent use.
 * It reads no clock and does no I/O: the owner counts and logs the verdicts, and asks
 * {@link #firstUnreadable()} whether a message it could not read is the one to log.
 *
 * @param <M> what the owner keeps of a message until it is read (raw bytes, a decoded message)
 */
public final class EpochInbox<M> {

    /** What {@link #offer} decided. */
    public enum Verdict {
        /** The current epoch, from an admitted sender: the owner reads it now. */
        DELIVER,
        /** A newer epoch: kept until that epoch is installed, then replayed. */
        HELD,
        /** An older epoch, or the current one from a sender the view does not admit: dropped. */
        STALE,
        /** A newer epoch, but the inbox already holds {@code bound} messages: dropped. */
        FULL
    }

    /** The owner's entry point for a message, called again for each held message that an install makes due. */
    @FunctionalInterface
    public interface Replay<M> {
        /** Offers {@code message} of {@code epoch} from {@code from} again, as if it had just arrived. */
        void receive(NodeId from, long epoch, M message);
    }

    /** A message that arrived before this node installed its epoch. */
    private record Held<M>(NodeId from, long epoch, M message) {
    }

    private static final Predicate<NodeId> NOBODY = from -> false;

    private final int bound;
    private final Replay<M> replay;
    /** Null while none is held (almost always: every live lock has an inbox). */
    private List<Held<M>> held;
    private long epoch = Long.MIN_VALUE;
    private Predicate<? super NodeId> admits = NOBODY;
    private boolean unreadableSeen;

    /**
     * An inbox with no epoch installed yet (every message until the first {@link #install} is newer).
     *
     * @param bound  how many messages of newer epochs it keeps at most; 0 keeps none
     * @param replay where held messages go back on {@link #install}
     * @throws IllegalArgumentException if {@code bound} is negative
     */
    public EpochInbox(int bound, Replay<M> replay) {
        if (bound < 0) {
            throw new IllegalArgumentException("inbox bound must be >= 0 (0 holds nothing), got " + bound);
        }
        this.bound = bound;
        this.replay = Objects.requireNonNull(replay, "replay");
    }

    /** The installed epoch ({@link Long#MIN_VALUE} before the first {@link #install}). */
    public long epoch() {
        return epoch;
    }

    /** How many messages of newer epochs are held now. */
    public int held() {
        return held == null ? 0 : held.size();
    }

    /**
     * Decides what becomes of a message that arrived now; a {@link Verdict#HELD} one is kept (the
     * inbox keeps {@code message} as it is: the owner must not change it afterwards).
     *
     * @param from    the sender
     * @param epoch   the epoch the sender was in
     * @param message what the owner will need to read it
     * @return the verdict; the owner reads the message only on {@link Verdict#DELIVER}
     */
    public Verdict offer(NodeId from, long epoch, M message) {
        if (epoch < this.epoch) {
            return Verdict.STALE;
        }
        if (epoch == this.epoch) {
            return admits.test(from) ? Verdict.DELIVER : Verdict.STALE;
        }
        if (held() >= bound) {
            return Verdict.FULL;
        }
        if (held == null) {
            held = new ArrayList<>();
        }
        held.add(new Held<>(from, epoch, message));
        return Verdict.HELD;
    }

    /**
     * Installs a newer epoch, then gives every held message whose epoch is not newer than it back to
     * the {@link Replay}, in arrival order (the replay may call {@link #offer}: it sees the new epoch).
     *
     * @param newEpoch the new view's epoch
     * @param admitted which senders of {@code newEpoch} are delivered: the view's members, or nobody
     *                 in a view that must not act
     * @throws IllegalArgumentException if {@code newEpoch} is not newer than the installed epoch
     */
    public void install(long newEpoch, Predicate<? super NodeId> admitted) {
        if (newEpoch <= epoch) {
            throw new IllegalArgumentException("epoch " + newEpoch + " is not newer than the installed epoch " + epoch);
        }
        epoch = newEpoch;
        admits = Objects.requireNonNull(admitted, "admitted");
        if (held == null) {
            return;
        }
        List<Held<M>> due = new ArrayList<>();
        for (Iterator<Held<M>> it = held.iterator(); it.hasNext(); ) {
            Held<M> h = it.next();
            if (h.epoch <= newEpoch) {
                it.remove();
                due.add(h);
            }
        }
        if (held.isEmpty()) {
            held = null;
        }
        for (Held<M> h : due) {
            replay.receive(h.from, h.epoch, h.message);
        }
    }

    /**
     * Notes that a delivered message could not be read (malformed) and is dropped.
     *
     * @return true for the first such message of this inbox only: the owner logs that one and only
     *         counts the others
     */
    public boolean firstUnreadable() {
        if (unreadableSeen) {
            return false;
        }
        unreadableSeen = true;
        return true;
    }
}
