package io.dlock.inmemory.sim;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one simulated run produced: counters, the checker's verdict and a hash of the whole trace.
 * Two runs of the same configuration and seed give equal results ({@link #equals}), which is how
 * determinism is tested.
 *
 * <p>Counting follows docs/algorithms.md 0.4: a message is counted when a node sends it to another node (so
 * messages later dropped or addressed to a crashed node are included); self-messages and
 * network duplicates are not. Times are virtual time units.
 *
 * @param seed              the run seed
 * @param nodes             N
 * @param algorithm         the algorithm's configuration name
 * @param requests          critical-section requests made by the workload
 * @param entries           grants that answered an outstanding request (critical-section entries)
 * @param entriesByNode     entries per node, by node index
 * @param messages          network messages sent
 * @param messagesByType    network messages sent per message class (simple name), sorted by name
 * @param bytes             encoded bytes of the network messages (0 unless messages were encoded)
 * @param messagesPerEntry  {@code messages / entries}, NaN if there was no entry
 * @param safetyViolations  grants made while another node held the lock (ME1)
 * @param fenceViolations   grants whose fencing token was not greater than every earlier one
 * @param grantViolations   grants without an outstanding request, or a second grant for one request
 * @param codecErrors       messages the codec failed to encode or decode, or changed in a round trip
 * @param ungranted         live nodes whose last request was never granted (ME3)
 * @param deadlocked        the queue drained while a request was still ungranted
 * @param truncated         the run stopped at its event or time limit with events still queued
 * @param faultsInjected    fault actions that happened: drops, duplicates, delays by a filter,
 *                          crashes, view changes
 * @param dropped           messages lost (faults, partitions, crashed or unknown receivers)
 * @param duplicated        extra copies delivered by the duplicate fault
 * @param staleDropped      messages dropped on arrival because they carried an older epoch
 * @param syncDelay         average time from an exit at which another request was pending to the
 *                          next entry; NaN if no such exit
 * @param syncDelaySamples  number of exits averaged in {@code syncDelay}
 * @param endTime           virtual time of the last event processed
 * @param events            events processed
 * @param traceHash         a hash folded over every processed event (time, node, kind, message type)
 * @param firstViolation    the first violation seen, with time, nodes and event; {@code null} if none
 * @param error             an exception thrown by a protocol handler (it ends the run); {@code null} if none
 * @param replay            one line of Java that replays this run
 * @param recoveryTimes     for each fault injected while the lock was held or wanted, the virtual
 *                          time from the fault to the next grant (how long the cluster went without a holder)
 * @param fencedOut         holders fenced out by a non-primary view
 * @param addedViolations   violations of the invariants a test added ({@link Simulation#check})
 */
public record SimulationResult(long seed, int nodes, String algorithm, long requests, long entries,
                               List<Long> entriesByNode, long messages, Map<String, Long> messagesByType,
                               long bytes, double messagesPerEntry, long safetyViolations, long fenceViolations,
                               long grantViolations, long codecErrors, long ungranted, boolean deadlocked,
                               boolean truncated, long faultsInjected, long dropped, long duplicated,
                               long staleDropped, double syncDelay, long syncDelaySamples, long endTime,
                               long events, long traceHash, String firstViolation, String error, String replay,
                               List<Long> recoveryTimes, long fencedOut, long addedViolations) {

    /** Copies the collections. */
    public SimulationResult {
        entriesByNode = List.copyOf(entriesByNode);
        recoveryTimes = List.copyOf(recoveryTimes);
        messagesByType = Collections.unmodifiableMap(new TreeMap<>(messagesByType));
    }

    /**
     * Whether the checker found nothing wrong: no safety, fence, grant or codec violation, no violation
     * of an added invariant, no protocol exception, and, when no fault was injected, every request
     * granted (ME3).
     */
    public boolean ok() {
        return safetyViolations == 0 && fenceViolations == 0 && grantViolations == 0 && codecErrors == 0
                && addedViolations == 0 && error == null && (faultsInjected > 0 || ungranted == 0);
    }

    /** Network messages of the message class whose simple name is {@code simpleName} (0 if none). */
    public long messages(String simpleName) {
        return messagesByType.getOrDefault(simpleName, 0L);
    }

    /** Encoded bytes per entry, NaN if there was no entry. */
    public double bytesPerEntry() {
        return entries == 0 ? Double.NaN : (double) bytes / entries;
    }

    /**
     * A report for assertion messages. Its first line is {@code failed on seed N; replay: <java>},
     * the one-line call that replays the run; the next lines give the counters and the first
     * violation.
     */
    public String describeFailure() {
        StringBuilder s = new StringBuilder("failed on seed ").append(seed).append("; replay: ").append(replay)
                .append("\n  ").append(summary());
        if (firstViolation != null) {
            s.append("\n  first violation: ").append(firstViolation);
        }
        if (error != null) {
            s.append("\n  error: ").append(error);
        }
        return s.toString();
    }

    /** One line of the main counters. */
    public String summary() {
        return algorithm + " N=" + nodes + " seed=" + seed + ": entries=" + entries + "/" + requests
                + " messages=" + messages + " (" + String.format(Locale.ROOT, "%.3f", messagesPerEntry)
                + "/entry) " + messagesByType + " safety=" + safetyViolations + " fence=" + fenceViolations
                + " grant=" + grantViolations + (addedViolations == 0 ? "" : " added=" + addedViolations)
                + " codec=" + codecErrors + " ungranted=" + ungranted
                + " deadlocked=" + deadlocked + " truncated=" + truncated + " faults=" + faultsInjected
                + " (dropped=" + dropped + " duplicated=" + duplicated + " stale=" + staleDropped + ")"
                + " syncDelay=" + syncDelay + " endTime=" + endTime + " events=" + events;
    }
}
