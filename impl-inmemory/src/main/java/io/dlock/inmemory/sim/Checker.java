package io.dlock.inmemory.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Watches one simulated run of one lock and counts what it sees go wrong, as it happens.
 *
 * <p>Invariants checked at every grant, release and crash (so after every event), each an
 * {@link Invariant} checked at every grant in this order ({@link GrantAnswersRequest},
 * {@link OneHolder}, {@link IncreasingFences}, then those added by {@link Simulation#check}) on the
 * lock state the checker keeps ({@link LockState}):
 * <ul>
 *   <li><b>ME1</b>: at most one node holds the lock (from {@code granted} to the release of that
 *       entry) at any virtual instant; a grant while another node holds is a safety violation;</li>
 *   <li>fencing tokens strictly increase across all grants of the run;</li>
 *   <li>a node is granted only while it has a request outstanding, and at most once per request.</li>
 * </ul>
 * At the end, {@link #ungranted()} counts the live nodes whose request was never granted (ME3).
 * A crashed node stops holding at its crash and its own pending request no longer counts.
 *
 * <p>Partitions (only a primary view, one with a majority of the previous view, may grant): a holder whose node installs a view that is not primary is <em>fenced
 * out</em> ({@link #onFencedOut}): from then on its hold no longer counts for ME1, which is checked
 * within the primary side only (the primary side may grant while the fenced-out holder, cut off, is
 * still in its critical section: that is what its older fencing token is for). Fences are checked
 * across all grants, both sides included.
 *
 * <p>It also measures the synchronization delay (docs/algorithms.md 0.4): for every exit at which another
 * live request is pending, the time until the next entry; and the recovery time: for every fault
 * ({@link #onFault}) that happens while a request is pending or the lock is held, the time until
 * the next grant.
 *
 * <p>Every violation is counted; the first one of any kind is kept as a one-line description with
 * its virtual time, the nodes involved and the event being processed.
 */
final class Checker implements LockState {

    private static final int GRANT = 0;
    private static final int ME1 = 1;
    private static final int FENCE = 2;
    private static final int BUILT_IN = 3;

    private final Supplier<String> currentEvent;
    private final boolean[] requested;
    private final boolean[] granted;
    private final boolean[] holding;
    private final boolean[] crashed;
    private int holders;
    private int pending;
    private long lastFence;
    private boolean anyFence;
    private long lastFenceTime;
    private int lastFenceNode = -1;

    /** The checker's own invariants first ({@link #GRANT}, {@link #ME1}, {@link #FENCE}), then the added ones. */
    private final Invariant[] invariants;
    /** Violations per invariant, in the order of {@link #invariants}. */
    private final long[] violations;
    private long codecErrors;
    private String firstViolation;

    private final List<Long> faultTimes = new ArrayList<>();
    private final List<Long> recoveryTimes = new ArrayList<>();

    private long exitTime = -1;
    private long syncDelaySum;
    private long syncDelaySamples;

    /**
     * A checker of the built-in invariants only.
     *
     * @param n            number of nodes
     * @param currentEvent describes the event being processed, asked only when a violation is found
     */
    Checker(int n, Supplier<String> currentEvent) {
        this(n, currentEvent, List.of());
    }

    /**
     * @param n            number of nodes
     * @param currentEvent describes the event being processed, asked only when a violation is found
     * @param added        invariants checked at every grant after the built-in ones
     */
    Checker(int n, Supplier<String> currentEvent, List<Invariant> added) {
        this.currentEvent = currentEvent;
        invariants = new Invariant[BUILT_IN + added.size()];
        invariants[GRANT] = new GrantAnswersRequest(); // first: the checker's messages keep this order
        invariants[ME1] = new OneHolder();
        invariants[FENCE] = new IncreasingFences();
        for (int i = 0; i < added.size(); i++) {
            invariants[BUILT_IN + i] = added.get(i);
        }
        violations = new long[invariants.length];
        requested = new boolean[n];
        granted = new boolean[n];
        holding = new boolean[n];
        crashed = new boolean[n];
    }

    /** {@code node} made a request at {@code time}. */
    void onRequest(int node, long time) {
        requested[node] = true;
        granted[node] = false;
        pending++;
    }

    /**
     * {@code node} was granted with {@code fence} at {@code time}: every invariant checks the grant
     * first, in order.
     *
     * @return whether the grant answers an outstanding request (so the workload may hold and release it)
     */
    boolean onGrant(int node, long fence, long time) {
        for (int i = 0; i < invariants.length; i++) {
            String violation = invariants[i].check(this, node, fence);
            if (violation != null) {
                violations[i]++;
                record(time, violation);
            }
        }
        boolean valid = requested[node] && !granted[node];
        if (!anyFence || fence > lastFence) {
            lastFence = fence;
        }
        anyFence = true;
        lastFenceNode = node;
        lastFenceTime = time;
        if (!valid) {
            return false;
        }
        granted[node] = true;
        pending--;
        if (!holding[node]) {
            holding[node] = true;
            holders++;
        }
        for (long fault : faultTimes) {
            recoveryTimes.add(time - fault);
        }
        faultTimes.clear();
        if (exitTime >= 0) {
            syncDelaySum += time - exitTime;
            syncDelaySamples++;
            exitTime = -1;
        }
        return true;
    }

    /** {@code node} left the critical section at {@code time}. */
    void onRelease(int node, long time) {
        if (holding[node]) {
            holding[node] = false;
            holders--;
        }
        requested[node] = false;
        granted[node] = false;
        exitTime = pending > 0 ? time : -1;
    }

    /** {@code node} crashed at {@code time}: its hold ends and its pending request is abandoned. */
    void onCrash(int node, long time) {
        if (crashed[node]) {
            return;
        }
        crashed[node] = true;
        if (holding[node]) {
            holding[node] = false;
            holders--;
        }
        if (requested[node] && !granted[node]) {
            pending--;
        }
        requested[node] = false;
        granted[node] = false;
    }

    /**
     * A fault happened at {@code time}; if a request is pending or the lock is held, the time to the
     * next grant is one recovery-time sample.
     */
    void onFault(long time) {
        if (pending > 0 || holders > 0) {
            faultTimes.add(time);
        }
    }

    /**
     * {@code node}, holding, installed a non-primary view at {@code time}: its hold no longer counts
     * for ME1 (it is still expected to release).
     */
    void onFencedOut(int node, long time) {
        if (holding[node]) {
            holding[node] = false;
            holders--;
        }
    }

    @Override
    public int nodes() {
        return holding.length;
    }

    @Override
    public boolean requested(int node) {
        return requested[node];
    }

    @Override
    public boolean granted(int node) {
        return granted[node];
    }

    @Override
    public boolean holding(int node) {
        return holding[node];
    }

    @Override
    public int holders() {
        return holders;
    }

    @Override
    public boolean anyFence() {
        return anyFence;
    }

    @Override
    public long lastFence() {
        return lastFence;
    }

    @Override
    public int lastFenceNode() {
        return lastFenceNode;
    }

    @Override
    public long lastFenceTime() {
        return lastFenceTime;
    }

    /** Whether {@code node} has a request outstanding, not yet granted. */
    boolean waiting(int node) {
        return requested[node] && !granted[node] && !crashed[node];
    }

    /** Recovery times measured so far (see the class comment), in order. */
    List<Long> recoveryTimes() {
        return List.copyOf(recoveryTimes);
    }

    /** Counts a message the codec failed to encode or decode, or changed in a round trip. */
    void reportCodecError(long time, String description) {
        codecErrors++;
        record(time, description);
    }

    /** Live nodes whose current request has not been granted. */
    long ungranted() {
        return pending;
    }

    long safetyViolations() {
        return violations[ME1];
    }

    long fenceViolations() {
        return violations[FENCE];
    }

    long grantViolations() {
        return violations[GRANT];
    }

    /** Violations of the invariants added to the built-in ones. */
    long addedViolations() {
        long sum = 0;
        for (int i = BUILT_IN; i < violations.length; i++) {
            sum += violations[i];
        }
        return sum;
    }

    long codecErrors() {
        return codecErrors;
    }

    /** The first violation of any kind, or {@code null}. */
    String firstViolation() {
        return firstViolation;
    }

    /** Average synchronization delay, NaN if no exit found another request pending. */
    double syncDelay() {
        return syncDelaySamples == 0 ? Double.NaN : (double) syncDelaySum / syncDelaySamples;
    }

    long syncDelaySamples() {
        return syncDelaySamples;
    }

    private void record(long time, String what) {
        if (firstViolation == null) {
            firstViolation = "t=" + time + ": " + what + "; during " + currentEvent.get();
        }
    }
}
