package io.dlock.samples.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One pass over a history in time order that turns its events into what the rules judge: the holds of each client,
 * the grants, the fenced writes, the fault windows and the counts. Along the way it reports failed starts, errors and
 * client events out of sequence to the {@link Findings}.
 *
 * <p>Each client is a small state machine: idle, acquiring (after {@code acquire}), holding (after {@code granted}),
 * releasing (after {@code release}). A {@code crash <node>} ends every incarnation of that node seen so far: holds of
 * its clients end there ({@link HoldEnd#CRASHED}), pending acquires become indeterminate, and later events of those
 * incarnations are ignored and noted (the nemesis may log the kill a moment before the signal lands).
 */
final class HistoryReplay {

    private enum Phase { IDLE, ACQUIRING, HOLDING, RELEASING }

    /** A client's state between its events. */
    private static final class Client {
        final String process;
        final ProcessId id;
        Phase phase = Phase.IDLE;
        long acquireAt;
        long grantedAt;
        long token;
        long releaseAt;
        int seq;

        Client(String process, ProcessId id) {
            this.process = process;
            this.id = id;
        }
    }

    /** A fault window whose end has not been seen yet. */
    private record OpenWindow(String kind, List<Integer> targets, List<Integer> majority, long beginAt) {
    }

    private final long start;
    private final Findings findings;

    final List<Hold> holds = new ArrayList<>();
    final List<Grant> grants = new ArrayList<>();
    final List<ClientWrite> writes = new ArrayList<>();
    final List<FaultWindow> windows = new ArrayList<>();
    /** Every node a client or a node's JVM recorded events for. */
    final Set<Integer> nodes = new TreeSet<>();
    final long lastAt;
    final int events;

    int acquires;
    int refused;
    int indeterminateAcquires;
    int pendingAcquires;
    int told;
    int staleWrites;
    int errors;
    int starts;
    long slowestStartMillis = -1;
    int failedStarts;
    int crashes;
    int ignoredAfterCrash;

    private final Map<String, ProcessId> ids = new HashMap<>();
    private final Map<String, Client> clients = new LinkedHashMap<>();
    private final Map<Integer, List<Client>> clientsByNode = new HashMap<>();
    private final Map<Integer, Set<Integer>> liveIncarnations = new HashMap<>();
    private final Map<Long, Long> crashedAt = new HashMap<>();
    private final Map<String, ArrayDeque<OpenWindow>> openWindows = new LinkedHashMap<>();

    private HistoryReplay(History history, Findings findings) {
        this.start = history.startNanos();
        this.findings = findings;
        this.events = history.events().size();
        this.lastAt = history.durationNanos();
    }

    /** Replays {@code history}, reporting what it finds on the way to {@code findings}. */
    static HistoryReplay of(History history, Findings findings) {
        HistoryReplay replay = new HistoryReplay(history, findings);
        for (HistoryEvent e : history.events()) {
            replay.apply(e);
        }
        replay.finish();
        return replay;
    }

    private void apply(HistoryEvent e) {
        long at = e.time() - start;
        if (e.process().equals(HistoryEvent.NEMESIS)) {
            nemesis(e, at);
            return;
        }
        ProcessId id = ids.computeIfAbsent(e.process(), ProcessId::parse);
        Long deadSince = crashedAt.get(id.incarnationKey());
        if (deadSince != null) {
            ignoredAfterCrash++;
            findings.note("ignored '" + e.process() + " " + e.op() + "' at " + Millis.of(at) + ": node " + id.node()
                    + " incarnation " + id.incarnation() + " was killed at " + Millis.of(deadSince));
            return;
        }
        nodes.add(id.node());
        liveIncarnations.computeIfAbsent(id.node(), n -> new TreeSet<>()).add(id.incarnation());
        if (id.isClient()) {
            client(clients.computeIfAbsent(e.process(), p -> newClient(p, id)), e, at);
        } else {
            nodeJvm(id, e, at);
        }
    }

    private Client newClient(String process, ProcessId id) {
        Client c = new Client(process, id);
        clientsByNode.computeIfAbsent(id.node(), n -> new ArrayList<>()).add(c);
        return c;
    }

    private void client(Client c, HistoryEvent e, long at) {
        switch (e.op()) {
            case "acquire":
                acquires++;
                if (c.phase != Phase.IDLE) {
                    malformed(c, e, at, "while " + describe(c) + " (a client does one operation at a time)");
                    return;
                }
                c.phase = Phase.ACQUIRING;
                c.acquireAt = at;
                return;
            case "granted":
                if (c.phase != Phase.ACQUIRING) {
                    malformed(c, e, at, "without a pending acquire (" + describe(c) + ")");
                    return;
                }
                c.phase = Phase.HOLDING;
                c.grantedAt = at;
                c.token = e.longArg(0);
                c.seq = grants.size();
                grants.add(new Grant(at, c.id.node()));
                return;
            case "refused":
                if (c.phase != Phase.ACQUIRING) {
                    malformed(c, e, at, "without a pending acquire (" + describe(c) + ")");
                    return;
                }
                refused++;
                c.phase = Phase.IDLE;
                return;
            case "release":
                if (c.phase != Phase.HOLDING) {
                    malformed(c, e, at, "without holding the lock (" + describe(c) + ")");
                    return;
                }
                c.phase = Phase.RELEASING;
                c.releaseAt = at;
                return;
            case "released":
                if (c.phase != Phase.RELEASING) {
                    malformed(c, e, at, "without a pending release (" + describe(c) + ")");
                    return;
                }
                endHold(c, at, HoldEnd.RELEASED);
                return;
            case "lost":
                if (c.phase != Phase.RELEASING) {
                    malformed(c, e, at, "without a pending release (" + describe(c) + ")");
                    return;
                }
                if (e.longArg(0) != c.token) {
                    malformed(c, e, at, "names token " + e.longArg(0) + " but the hold being released has token "
                            + c.token);
                }
                endHold(c, at, HoldEnd.LOST);
                return;
            case "told":
                told++;
                return;
            case "write":
                writes.add(new ClientWrite(c.process, at, e.longArg(0), e.longArg(1)));
                checkUnderHold(c, e, at);
                return;
            case "stale":
                staleWrites++;
                checkUnderHold(c, e, at);
                return;
            case "error":
                error(e, at);
                if (c.phase == Phase.ACQUIRING) {
                    indeterminateAcquires++;
                    c.phase = Phase.IDLE;
                } else if (c.phase == Phase.RELEASING) {
                    endHold(c, at, HoldEnd.UNLOCK_FAILED);
                }
                return;
            default:
                throw new IllegalStateException("EventSyntax let through client operation " + e.op());
        }
    }

    private void checkUnderHold(Client c, HistoryEvent e, long at) {
        if (c.phase != Phase.HOLDING) {
            malformed(c, e, at, "outside a hold (" + describe(c) + "): a client writes between granted and release");
        } else if (e.longArg(0) != c.token) {
            malformed(c, e, at, "under token " + e.longArg(0) + " while holding token " + c.token);
        }
    }

    private void nodeJvm(ProcessId id, HistoryEvent e, long at) {
        switch (e.op()) {
            case "started":
                starts++;
                slowestStartMillis = Math.max(slowestStartMillis, e.longArg(0));
                return;
            case "startfail":
                failedStarts++;
                findings.violation(ViolationKind.FAILED_START, "node " + id.node() + " (JVM " + e.process()
                        + ") failed to start at " + Millis.of(at) + ": " + e.args().get(0));
                return;
            case "told":
                told++;
                return;
            case "view":
                return; // informational: for a reader of the history
            case "error":
                error(e, at);
                return;
            default:
                throw new IllegalStateException("EventSyntax let through node operation " + e.op());
        }
    }

    private void nemesis(HistoryEvent e, long at) {
        switch (e.op()) {
            case "begin": {
                List<Integer> targets = EventSyntax.nodes(e.args().get(1));
                List<Integer> majority = e.args().size() == 4 ? EventSyntax.nodes(e.args().get(3)) : null;
                openWindows.computeIfAbsent(windowKey(e.args().get(0), targets), k -> new ArrayDeque<>())
                        .addLast(new OpenWindow(e.args().get(0), targets, majority, at));
                return;
            }
            case "end":
            case "heal": {
                List<Integer> targets = EventSyntax.nodes(e.args().get(1));
                ArrayDeque<OpenWindow> open = openWindows.get(windowKey(e.args().get(0), targets));
                if (open == null || open.isEmpty()) {
                    findings.note("nemesis '" + e.op() + " " + e.args().get(0) + " " + e.args().get(1) + "' at "
                            + Millis.of(at) + " closes no open window; ignored");
                    return;
                }
                OpenWindow w = open.removeFirst();
                windows.add(new FaultWindow(w.kind(), w.targets(), w.majority(), w.beginAt(), at));
                return;
            }
            case "crash":
                crash(Integer.parseInt(e.args().get(0)), at);
                return;
            case "error":
                error(e, at);
                return;
            default:
                throw new IllegalStateException("EventSyntax let through nemesis operation " + e.op());
        }
    }

    private static String windowKey(String kind, List<Integer> targets) {
        return kind + " " + targets;
    }

    private void crash(int node, long at) {
        crashes++;
        Set<Integer> live = liveIncarnations.remove(node);
        if (live == null) {
            return;
        }
        for (int incarnation : live) {
            crashedAt.put(new ProcessId(node, incarnation, 0).incarnationKey(), at);
        }
        for (Client c : clientsByNode.getOrDefault(node, List.of())) {
            if (!live.contains(c.id.incarnation())) {
                continue;
            }
            switch (c.phase) {
                case ACQUIRING:
                    indeterminateAcquires++;
                    c.phase = Phase.IDLE;
                    break;
                case HOLDING:
                    c.releaseAt = Hold.NONE;
                    endHold(c, at, HoldEnd.CRASHED);
                    break;
                case RELEASING:
                    endHold(c, at, HoldEnd.CRASHED);
                    break;
                default:
                    break;
            }
        }
    }

    private void error(HistoryEvent e, long at) {
        errors++;
        findings.violation(ViolationKind.ERROR, e.process() + " at " + Millis.of(at) + ": " + e.args().get(0));
    }

    private void endHold(Client c, long at, HoldEnd end) {
        holds.add(new Hold(c.seq, c.process, c.id.node(), c.acquireAt, c.grantedAt, c.token, c.releaseAt, at, end));
        c.phase = Phase.IDLE;
    }

    private void finish() {
        for (Client c : clients.values()) {
            switch (c.phase) {
                case ACQUIRING:
                    pendingAcquires++;
                    break;
                case HOLDING:
                    unfinished(new Hold(c.seq, c.process, c.id.node(), c.acquireAt, c.grantedAt, c.token, Hold.NONE,
                            Hold.NONE, HoldEnd.OPEN));
                    break;
                case RELEASING:
                    unfinished(new Hold(c.seq, c.process, c.id.node(), c.acquireAt, c.grantedAt, c.token, c.releaseAt,
                            Hold.NONE, HoldEnd.UNLOCK_PENDING));
                    break;
                default:
                    break;
            }
        }
        for (ArrayDeque<OpenWindow> open : openWindows.values()) {
            for (OpenWindow w : open) {
                windows.add(new FaultWindow(w.kind(), w.targets(), w.majority(), w.beginAt(), Hold.NONE));
            }
        }
        windows.sort((a, b) -> Long.compare(a.beginAt(), b.beginAt()));
        holds.sort((a, b) -> Integer.compare(a.seq(), b.seq()));
    }

    /** Keeps a hold the history ends in the middle of, and notes it. */
    private void unfinished(Hold hold) {
        holds.add(hold);
        findings.note("at the end of the history: " + hold.describe());
    }

    private void malformed(Client c, HistoryEvent e, long at, String why) {
        findings.violation(ViolationKind.MALFORMED_HISTORY, c.process + " at " + Millis.of(at) + ": '"
                + String.join(" ", e.op(), String.join(" ", e.args())).trim() + "' " + why);
    }

    private static String describe(Client c) {
        switch (c.phase) {
            case ACQUIRING:
                return "acquiring since " + Millis.of(c.acquireAt);
            case HOLDING:
                return "holding token " + c.token + " since " + Millis.of(c.grantedAt);
            case RELEASING:
                return "releasing token " + c.token + " since " + Millis.of(c.releaseAt);
            default:
                return "idle";
        }
    }
}
