package io.dlock.election.bully;

import io.dlock.election.bully.BullyMessage.Coordinator;
import io.dlock.election.bully.BullyMessage.Election;
import io.dlock.election.bully.BullyMessage.Ok;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.NodeId;
import java.util.List;

/**
 * The bully algorithm: the live process with the highest id always wins ("bullies" the others).
 *
 * <p><b>Source.</b> Source notes S0 (ブリーアルゴリズム) and
 * S2, as restated in docs/algorithms.md B1, rules 1-7; H. Garcia-Molina,
 * "Elections in a distributed computing system", IEEE Trans. Computers C-31(1):48-59, 1982.
 *
 * <p><b>Assumptions.</b> Complete graph; every process knows every id (the view) but not which are
 * alive; fail-stop crashes; timeouts longer than every reply (T_ok &gt; a round trip, T_coord &gt; the
 * time a higher process needs to finish). With wrong timeouts two coordinators can be declared.
 * FIFO not required.
 *
 * <p><b>Cost.</b> Ids 1..n, n crashed: n-1 messages when n-1 starts (1 ELECTION to the dead n,
 * n-2 COORDINATOR), n^2-n-1 when 1 starts (n(n-1)/2 ELECTION, (n-1)(n-2)/2 OK, n-2 COORDINATOR);
 * see {@link BullyDefinition#expectedMessages}. docs/algorithms.md F2: COORDINATOR goes to every lower id.
 *
 * <p><b>Deviations.</b> Rule 2 applies as written only until the node learns a coordinator of the
 * current run. Afterwards an ELECTION from a lower node (one that started late) is answered with OK
 * and, by the coordinator itself, with its COORDINATOR again, but starts no new election: with the
 * literal rule, late ELECTIONs restart nodes that restart the nodes above them, wave after wave
 * (we measured over 10^7 messages for n = 64 when every node starts while the top one lives).
 * The asker sent ELECTION to the coordinator too (it sends to every higher id), so it gets its
 * answer. A coordinator that fails after winning is the next run's business: the runtime starts one
 * on the view change that removes it. In docs/algorithms.md's counting scenarios (the old coordinator crashed,
 * timeouts longer than all delays) every ELECTION arrives before the COORDINATOR, so the counts of
 * BU-1 and BU-2 are unchanged. An OK that arrives after its T_ok fired, or twice, is ignored (rule 3
 * applies only while waiting for one); an ELECTION from a higher id is ignored.
 */
final class Bully implements ElectionProtocol<BullyMessage> {

    /*
     * Overview.
     *
     * State: coordinator (null until known); inProgress (rule 1 to rules 5/6/7); gotOk. Timers
     * "ok" (T_ok, running while inProgress && !gotOk) and "coordinator" (T_coord, running while
     * inProgress && gotOk).
     *
     * Invariants:
     *  - inProgress iff exactly one of the two timers runs, or this node is in the middle of rule 1.
     *  - A node calls leaderElected only for a coordinator >= itself: a lower COORDINATOR makes it
     *    run again (rule 6), so it never accepts a leader while it is alive and higher.
     *  - The highest live node gets no OK (every higher one is dead), so its T_ok fires and it wins;
     *    every lower live node either sent ELECTION to it (and then waits for its COORDINATOR) or
     *    receives COORDINATOR because it is lower. Hence every live node learns the highest live id.
     *  - Each node starts at most once per election (rule 1 returns while inProgress): with timeouts
     *    longer than all delays every ELECTION arrives before the winner's COORDINATOR.
     */

    private static final String OK_TIMER = "ok";
    private static final String COORDINATOR_TIMER = "coordinator";

    private final NodeId self;
    private final List<NodeId> members;
    private final ElectionEffects<BullyMessage> effects;
    private final long okTimeout;
    private final long coordinatorTimeout;

    private NodeId coordinator;
    private boolean inProgress;
    private boolean gotOk;

    Bully(ElectionContext<BullyMessage> context, long okTimeout, long coordinatorTimeout) {
        this.self = context.self();
        this.members = context.view().members();
        this.effects = context.effects();
        this.okTimeout = okTimeout;
        this.coordinatorTimeout = coordinatorTimeout;
    }

    @Override
    public void onStart() {
        startElection();
    }

    @Override
    public void onMessage(NodeId from, BullyMessage message) {
        if (message instanceof Election) {
            if (from.compareTo(self) < 0) {
                // Rule 2: answer, then run my own election unless it is running already...
                effects.send(from, new Ok());
                if (coordinator == null) {
                    startElection();
                } else if (coordinator.equals(self)) {
                    // ...deviation: the winner of this run repeats its result to a late asker.
                    effects.send(from, new Coordinator(self));
                }
                // ...deviation: a node that knows a higher coordinator of this run stays out; the
                // asker sent ELECTION to that coordinator too, which answers it.
            }
        } else if (message instanceof Ok) {
            // Rule 3: a higher process is alive and takes over; wait for its COORDINATOR.
            if (inProgress && !gotOk) {
                gotOk = true;
                effects.cancelTimer(OK_TIMER);
                effects.setTimer(COORDINATOR_TIMER, coordinatorTimeout);
            }
        } else if (message instanceof Coordinator c) {
            // Rule 6.
            coordinator = c.leader();
            inProgress = false;
            effects.cancelTimer(OK_TIMER);
            effects.cancelTimer(COORDINATOR_TIMER);
            if (coordinator.compareTo(self) < 0) {
                startElection();
            } else {
                effects.leaderElected(coordinator);
            }
        }
    }

    @Override
    public void onTimer(String name) {
        if (OK_TIMER.equals(name) && inProgress && !gotOk) {
            win(); // rule 4: nobody higher answered
        } else if (COORDINATOR_TIMER.equals(name) && inProgress) {
            inProgress = false; // rule 7: the higher process died meanwhile
            startElection();
        }
    }

    /** Rule 1. */
    private void startElection() {
        if (inProgress) {
            return;
        }
        inProgress = true;
        gotOk = false;
        boolean anyHigher = false;
        for (NodeId member : members) {
            if (member.compareTo(self) > 0) {
                effects.send(member, new Election());
                anyHigher = true;
            }
        }
        if (anyHigher) {
            effects.setTimer(OK_TIMER, okTimeout);
        } else {
            win();
        }
    }

    /** Rule 5: tell every lower process, in ascending order. */
    private void win() {
        coordinator = self;
        inProgress = false;
        effects.cancelTimer(OK_TIMER);
        effects.cancelTimer(COORDINATOR_TIMER);
        for (NodeId member : members) {
            if (member.compareTo(self) < 0) {
                effects.send(member, new Coordinator(self));
            }
        }
        effects.leaderElected(self);
    }
}
