package io.dlock.inmemory.sim;

import java.util.List;

/**
 * What a {@link KeyedSimulation} run did and what its checks found.
 *
 * @param algorithm       the algorithm's name
 * @param nodes           cluster size
 * @param names           distinct names the workload could draw
 * @param seed            the run's seed
 * @param requests        requests made
 * @param entries         grants (entries into the critical section)
 * @param namesUsed       distinct names actually used
 * @param lockMessages    messages of the locks (the algorithm's own)
 * @param reclaimMessages messages of the reclamation protocol
 * @param reclaimed       lock states dropped by a committed round, summed over the nodes
 * @param incarnations    lock states created, summed over the nodes (first use and every use after a reclamation)
 * @param peakStates      the most lock states alive at once, summed over the nodes
 * @param statesLeft      lock states alive when the run ended (0 when reclamation converged)
 * @param endTime         virtual time when the run ended
 * @param truncated       whether the run hit its time limit
 * @param violations      safety violations (two holders of a name, a fencing token not above the last one)
 * @param replay          code that replays this run
 */
public record KeyedResult(String algorithm, int nodes, int names, long seed, long requests, long entries,
                          int namesUsed, long lockMessages, long reclaimMessages, long reclaimed, long incarnations,
                          long peakStates, long statesLeft, long endTime, boolean truncated, List<String> violations,
                          String replay) {

    public KeyedResult {
        violations = List.copyOf(violations);
    }

    /** Requests that were never granted. */
    public long ungranted() {
        return requests - entries;
    }

    /** Safe, live, and every lock state reclaimed at the end. */
    public boolean passed() {
        return violations.isEmpty() && ungranted() == 0 && !truncated && statesLeft == 0;
    }

    /** One paragraph: the figures, what failed if anything, and how to replay the run. */
    public String describe() {
        return algorithm + " N=" + nodes + " names=" + names + " seed=" + seed + ": requests=" + requests
                + " entries=" + entries + " namesUsed=" + namesUsed + " lockMessages=" + lockMessages
                + " reclaimMessages=" + reclaimMessages + " reclaimed=" + reclaimed + " incarnations=" + incarnations
                + " peakStates=" + peakStates + " statesLeft=" + statesLeft + " endTime=" + endTime
                + (truncated ? " TRUNCATED" : "") + (violations.isEmpty() ? "" : " violations=" + violations)
                + "\n  replay: " + replay;
    }
}
