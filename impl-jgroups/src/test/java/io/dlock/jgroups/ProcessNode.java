package io.dlock.jgroups;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockOwnershipLostException;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.ClusterView;
import io.dlock.mutex.common.RendezvousHash;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.View;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.NodeId;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link MultiProcessTest}: one dlock node on the default TCP stack that increments a
 * counter held in a file under the lock (read, sleep a little, write). Talks to the test on stdin/stdout.
 *
 * <p>Output: {@code READY} once the view has the expected size; {@code HOLD v t} when it holds the lock with
 * fencing token t and has read v; {@code LOST t} when its ownership listener hears that the hold with token t
 * was lost; {@code UNLOCKED-LOST t} when its unlock threw {@link LockOwnershipLostException}; {@code INC v+1} after writing; {@code IDLE} after releasing (controlled mode); {@code DONE}
 * at the end; {@code TIMEOUT} if the lock was not granted within two minutes (then it exits).
 *
 * <p>Input: {@code go} lets the main thread go on (after {@code READY}; in controlled mode also after
 * {@code HOLD}, so the test can kill it while it holds the lock, and after {@code IDLE}, so the test can
 * keep it idle); {@code exit} ends it. Two queries are answered at once by a reader thread, whatever the
 * main thread does: {@code token?} prints {@code TOKEN true|false|none} (whether this node holds the
 * token of a token algorithm now, read on the lock's event loop; {@code none} for other algorithms) and
 * {@code coordinator?} prints {@code COORDINATOR id} (for the centralized algorithm the lock's coordinator: the
 * owner of its name in the view by default, the leader of the mutex coordinator election with
 * {@code coordinator=leader}; the JGroups view coordinator for the others).
 *
 * <p>Arguments: cluster algorithm nodeId port expectedMembers counterFile increments controlled.
 */
public final class ProcessNode {

    /** The one lock the nodes contend for. */
    private static final String LOCK_NAME = "file-counter";

    /** How long one acquisition may take before the child gives up: far above any recovery. */
    private static final long LOCK_TIMEOUT_S = 120;

    private ProcessNode() {
    }

    public static void main(String[] args) throws Exception {
        String cluster = args[0];
        String algorithm = args[1];
        long id = Long.parseLong(args[2]);
        int port = Integer.parseInt(args[3]);
        int members = Integer.parseInt(args[4]);
        Path file = Path.of(args[5]);
        int increments = Integer.parseInt(args[6]);
        boolean controlled = Boolean.parseBoolean(args[7]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        DlockConfig config = DlockConfig.builder().transport("jgroups").cluster(cluster).nodeId(id)
                .set(DlockConfig.MUTEX, algorithm)
                .set(JGroupsTransportFactory.STACK, "default")
                .set(JGroupsTransportFactory.BIND_ADDR, "127.0.0.1")
                .set(JGroupsTransportFactory.PORT, Integer.toString(port))
                .set(JGroupsTransportFactory.PORT_RANGE, "5")
                .build();
        JGroupsTransport transport = JGroupsTransportFactory.newTransport(config);
        try (LockService service = LockService.start(config, transport)) {
            DistributedLock lock = service.lock(LOCK_NAME);
            lock.addOwnershipListener(loss -> out.println("LOST " + loss.fencingToken()));
            BlockingQueue<String> commands = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> readCommands(in, out, commands, service, transport, lock), "commands");
            reader.setDaemon(true);
            reader.start();
            while (service.view().size() < members) {
                Thread.sleep(20);
            }
            out.println("READY");
            if (!"go".equals(commands.take())) {
                return;
            }
            for (int i = 0; i < increments; i++) {
                if (!lock.tryLock(LOCK_TIMEOUT_S, TimeUnit.SECONDS)) {
                    out.println("TIMEOUT");
                    return;
                }
                try {
                    long value = Long.parseLong(Files.readString(file).trim());
                    out.println("HOLD " + value + " " + lock.fencingToken());
                    if (controlled && !"go".equals(commands.take())) {
                        return;
                    }
                    Thread.sleep(10);
                    Files.writeString(file, Long.toString(value + 1));
                    out.println("INC " + (value + 1));
                } finally {
                    try {
                        lock.unlock();
                    } catch (LockOwnershipLostException e) {
                        out.println("UNLOCKED-LOST " + e.fencingToken());
                    }
                }
                if (controlled && i + 1 < increments) {
                    out.println("IDLE");
                    if (!"go".equals(commands.take())) {
                        return;
                    }
                }
            }
            out.println("DONE");
            // wait until every node is done, so that nobody's leaving changes the others' views
            while (!"exit".equals(commands.take())) {
                // ignore
            }
        }
    }

    private static void readCommands(BufferedReader in, PrintStream out, BlockingQueue<String> commands,
                                     LockService service, JGroupsTransport transport, DistributedLock lock) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("token?")) {
                    out.println("TOKEN " + tokenState(lock));
                } else if (line.equals("coordinator?")) {
                    out.println("COORDINATOR " + coordinator(service, transport));
                } else {
                    commands.add(line);
                }
            }
        } catch (Exception e) {
            out.println("ERROR " + e);
        }
        commands.add("exit"); // the test went away
    }

    /** The node whose crash is "the coordinator's" for this algorithm, or 0 if unknown yet. */
    private static long coordinator(LockService service, JGroupsTransport transport) throws InterruptedException {
        MutexAlgorithm algorithm = service.config().mutex();
        if (AlgorithmDefinitions.mutex(algorithm).family() == ProtocolFamily.CENTRAL
                && !AlgorithmDefinitions.mutex(algorithm).followsLeader(new ProtocolOptions(service.config().mutexOptions()))) {
            ClusterView view = service.view();
            return RendezvousHash.owner(LOCK_NAME, new View(view.epoch(), view.members())).value();
        }
        if (AlgorithmDefinitions.mutex(algorithm).family() == ProtocolFamily.CENTRAL) {
            Optional<NodeId> leader = service.election(LockService.COORDINATOR_GROUP).awaitLeader(Duration.ofSeconds(10));
            return leader.map(NodeId::value).orElse(0L);
        }
        NodeId coord = JGroupsTransport.idOf(transport.channel().getView().getCoord());
        return coord == null ? 0 : coord.value();
    }

    /**
     * Whether this node's protocol instance holds the token now: {@code true}, {@code false}, or
     * {@code none} for an algorithm without a token. A test-only probe: it reads the private state of the
     * token algorithms by reflection, on the lock's event loop (so it sees a consistent state), to keep
     * such a query out of the library's API.
     */
    static String tokenState(DistributedLock lock) throws Exception {
        Object source = field(lock, "drivers"); // the facade finds its driver by name on every call
        Method peek = source.getClass().getDeclaredMethod("peek", String.class);
        peek.setAccessible(true);
        Object driver = peek.invoke(source, lock.name());
        if (driver == null) {
            return "false"; // no state for the lock on this node: it holds no token
        }
        Executor loop = (Executor) driver; // a lock's driver is its own event loop
        CompletableFuture<String> answer = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                Object protocol = field(driver, "protocol");
                if (protocol instanceof io.dlock.membership.PrimaryGate<?> gate) {
                    protocol = gate.inner(); // the majority rule's wrapper around the algorithm
                }
                answer.complete(holdsToken(protocol));
            } catch (Exception | Error e) {
                answer.completeExceptionally(e);
            }
        });
        return answer.get(10, TimeUnit.SECONDS);
    }

    private static String holdsToken(Object protocol) throws Exception {
        switch (protocol.getClass().getSimpleName()) {
            case "TokenRing":
                return Boolean.toString((Boolean) field(protocol, "holding"));
            case "SuzukiKasami":
                return Boolean.toString(field(protocol, "token") != null);
            case "Raymond":
                return Boolean.toString(field(protocol, "holder").equals(field(protocol, "self")));
            case "NaimiTrehel":
            case "Ctta":
                Method m = protocol.getClass().getDeclaredMethod("hasToken");
                m.setAccessible(true);
                return Boolean.toString((Boolean) m.invoke(protocol));
            default:
                return "none";
        }
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(target.getClass().getName() + "." + name
                + " (the token probe of ProcessNode must follow the algorithm's field names)");
    }
}
