package io.dlock.jgroups;

import io.dlock.ClusterView;
import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.util.ExtendedUUID;

/**
 * The child JVM of {@link StartOrderTest}: one node that starts, says how the start went, and then does what
 * its mode says. Talks to the test on stdin/stdout.
 *
 * <p>Arguments: {@code cluster stack port portRange id joinTimeoutMs mode [workMs]}; {@code stack} is
 * {@code default} (then {@code dlock.jgroups.initial-hosts} is 127.0.0.1[port]) or {@code tcp} with the
 * initial hosts 127.0.0.1[port]; id 0 means no {@code dlock.node.id} (the id is derived from the address).
 * Modes:
 * <ul>
 *   <li>{@code quick workMs}: what a Quick start does: start, lock and unlock once, work for {@code workMs},
 *       close, exit. Prints {@code STARTED ms epoch members} or {@code FAILED ms message}, then {@code CLOSED}.</li>
 *   <li>{@code stay}: start, print {@code STARTED ...} (or {@code FAILED ...}), then {@code VIEW epoch members}
 *       at every view change until {@code exit} on stdin (then it closes and prints {@code CLOSED}); {@code lock name}
 *       on stdin takes that lock and keeps it (prints {@code LOCKED name token}, or {@code NOT-LOCKED name});
 *       {@code fd?} prints {@code FD clientState suspicions} of FD_SOCK2.</li>
 *   <li>{@code deaf [accept]}: a bare JGroups member on the stack (with the dlock id in its address) that never
 *       accepts a JOIN after those of the first {@code accept} joiners (default 0; {@link DropJoins}): prints
 *       {@code COORD} once it is the coordinator of its own cluster and {@code JOIN-DROPPED address} for every
 *       dropped joiner, until {@code exit} (it leaves) or it is killed.</li>
 *   <li>{@code last}: a bare JGroups member whose address sorts after every random one (so a joining client that
 *       picks the first of all the nodes it found never picks it); prints {@code MEMBER view} once it has joined.</li>
 * </ul>
 * A start's {@code ms} is the time LockService.start took. The mutex algorithm is Ricart-Agrawala, or the one
 * named by the system property {@code dlock.test.child-mutex}; the system property {@code dlock.test.initial-hosts}
 * replaces the initial hosts, {@code dlock.test.bind-addr} the bind address 127.0.0.1.
 */
public final class StartChild {

    private StartChild() {
    }

    public static void main(String[] args) throws Exception {
        String cluster = args[0];
        String stack = args[1];
        String port = args[2];
        String portRange = args[3];
        long id = Long.parseLong(args[4]);
        String joinTimeout = args[5];
        String mode = args[6];
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        DlockConfig.Builder b = DlockConfig.builder().transport("jgroups").cluster(cluster)
                .set(DlockConfig.MUTEX, System.getProperty("dlock.test.child-mutex",
                        MutexAlgorithm.RICART_AGRAWALA.configName()))
                .set(JGroupsTransportFactory.STACK, stack)
                .set(JGroupsTransportFactory.BIND_ADDR, System.getProperty("dlock.test.bind-addr", "127.0.0.1"))
                .set(JGroupsTransportFactory.PORT, port)
                .set(JGroupsTransportFactory.PORT_RANGE, portRange)
                .set(JGroupsTransportFactory.INITIAL_HOSTS, System.getProperty("dlock.test.initial-hosts",
                        "127.0.0.1[" + port + "]"))
                .set(JGroupsTransportFactory.JOIN_TIMEOUT_MS, joinTimeout);
        if (id != 0) {
            b.nodeId(id);
        }
        DlockConfig config = b.build();
        if (mode.equals("deaf") || mode.equals("last")) {
            bare(config, stack, id, mode.equals("deaf") ? Integer.parseInt(args.length > 7 ? args[7] : "0") : -1, out, in);
            return;
        }
        long start = System.nanoTime();
        LockService service;
        JGroupsTransport transport = JGroupsTransportFactory.newTransport(config);
        try {
            service = LockService.start(config, transport);
        } catch (RuntimeException e) {
            out.println("FAILED " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " "
                    + e.getMessage().replace('\n', ' '));
            return;
        }
        ClusterView first = service.view();
        out.println("STARTED " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " " + first.epoch() + " "
                + first.members());
        try (service) {
            if (mode.equals("quick")) {
                DistributedLock lock = service.lock("quick");
                if (lock.tryLock(30, TimeUnit.SECONDS)) {
                    lock.unlock();
                }
                Thread.sleep(Long.parseLong(args[7]));
            } else {
                Thread reader = new Thread(() -> commands(service, transport, in, out), "commands");
                reader.setDaemon(true);
                reader.start();
                ClusterView last = first;
                while (reader.isAlive()) {
                    ClusterView v = service.view();
                    // a new view (epoch or members), not only a new verdict on the same view
                    if (v.epoch() != last.epoch() || !v.members().equals(last.members())) {
                        out.println("VIEW " + v.epoch() + " " + v.members());
                        last = v;
                    }
                    reader.join(20);
                }
            }
        }
        out.println("CLOSED");
    }

    /**
     * Reads {@code lock name} (take the lock and keep it: prints {@code LOCKED name token}) and {@code fd?} (prints
     * {@code FD state suspicions}: FD_SOCK2's client state and how many suspicions it has raised) until {@code exit}.
     */
    private static void commands(LockService service, JGroupsTransport transport, BufferedReader in, PrintStream out) {
        try {
            String line;
            while ((line = in.readLine()) != null && !line.equals("exit")) {
                if (line.equals("fd?")) {
                    FD_SOCK2 fd = transport.channel().getProtocolStack().findProtocol(FD_SOCK2.class);
                    String history = fd.printSuspectHistory();
                    out.println("FD " + fd.getClientState() + " " + (history.isEmpty() ? 0 : history.split("\n").length));
                } else if (line.startsWith("lock ")) {
                    DistributedLock lock = service.lock(line.substring("lock ".length()));
                    if (lock.tryLock(30, TimeUnit.SECONDS)) {
                        out.println("LOCKED " + lock.name() + " " + lock.fencingToken());
                    } else {
                        out.println("NOT-LOCKED " + lock.name());
                    }
                }
            }
        } catch (java.io.IOException e) {
            // the test went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A bare JGroups member with this node's dlock id: with {@code accept} >= 0 a coordinator that lets only the first
     * {@code accept} joiners in (mode deaf), else (mode last) a member whose address sorts after every random one.
     */
    private static void bare(DlockConfig config, String stack, long id, int accept, PrintStream out, BufferedReader in)
            throws Exception {
        String xml = JGroupsTransportFactory.substitute(JGroupsTransportFactory.readStack(stack),
                JGroupsTransportFactory.settings(config, stack));
        try (JChannel ch = new JChannel(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)))) {
            ExtendedUUID address;
            if (accept >= 0) {
                DropJoins.install(ch.getProtocolStack(), accept, joiner -> out.println("JOIN-DROPPED " + joiner));
                address = ExtendedUUID.randomUUID();
            } else {
                address = new ExtendedUUID(Long.MAX_VALUE, Long.MAX_VALUE);
            }
            address.put(JGroupsTransport.ID_KEY, Long.toString(id).getBytes(StandardCharsets.US_ASCII));
            ch.addAddressGenerator(() -> address);
            ch.name((accept >= 0 ? "deaf-" : "last-") + id);
            ch.connect(config.cluster());
            out.println((accept >= 0 ? "COORD " : "MEMBER ") + ch.getView());
            String line;
            do {
                line = in.readLine(); // stay
            } while (line != null && !line.equals("exit"));
        }
        out.println("CLOSED");
    }
}
