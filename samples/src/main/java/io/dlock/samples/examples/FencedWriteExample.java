package io.dlock.samples.examples;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.StaleFencingTokenException;
import io.dlock.jgroups.JGroupsTransportFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Why fencing tokens matter, with real processes: one node of a cluster on this machine (the
 * {@code default} JGroups stack on 127.0.0.1) that takes a lock and writes to a {@link FencedFile} with the
 * lock's fencing token, driven by commands on standard input.
 *
 * <pre>
 * java -cp samples/target/dlock.jar io.dlock.samples.examples.FencedWriteExample store.txt 1   # terminal 1
 * java -cp samples/target/dlock.jar io.dlock.samples.examples.FencedWriteExample store.txt 2   # terminal 2
 * java -cp samples/target/dlock.jar io.dlock.samples.examples.FencedWriteExample store.txt 3   # terminal 3
 * </pre>
 *
 * Then: type {@code lock} and {@code write hello} in terminal 2 (it prints {@code LOCKED t} and
 * {@code ACCEPTED t}); pause that process with {@code kill -STOP <pid>} (it printed its pid); after the
 * failure detection (a few seconds) type {@code lock} and {@code write mine} in terminal 3, which gets a
 * greater token; type {@code write late} in terminal 2 and resume it with {@code kill -CONT <pid>}: it still
 * believes it holds the lock, but the store answers {@code REFUSED}, because a newer token was accepted.
 * Mutual exclusion cannot stop a paused holder from writing late; the fenced store can.
 *
 * <p>Commands: {@code lock} (waits up to 60 s; prints {@code LOCKED token} or {@code TIMEOUT}),
 * {@code write text} (prints {@code ACCEPTED token}, or {@code REFUSED token highest} when the store has
 * accepted a newer token), {@code unlock} ({@code UNLOCKED}), {@code exit}. At start it prints
 * {@code PID pid}, then {@code READY} once it sees the expected number of members.
 *
 * <p>Arguments: {@code store-file node-id [port [members [algorithm [cluster]]]]}; defaults: port 7800
 * (the first node's; the others find it with TCPPING on the next ports), members 1, algorithm
 * {@code ricart-agrawala}, cluster {@code fenced-write}.
 */
public final class FencedWriteExample {

    private FencedWriteExample() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: FencedWriteExample store-file node-id [port [members [algorithm [cluster]]]]");
            System.exit(2);
        }
        FencedFile store = new FencedFile(Path.of(args[0]));
        long id = Long.parseLong(args[1]);
        String port = args.length > 2 ? args[2] : "7800";
        int members = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        String algorithm = args.length > 4 ? args[4] : "ricart-agrawala";
        String cluster = args.length > 5 ? args[5] : "fenced-write";
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        DlockConfig config = DlockConfig.builder().transport("jgroups").cluster(cluster).nodeId(id)
                .set(DlockConfig.MUTEX, algorithm)
                .set(JGroupsTransportFactory.STACK, "default")
                .set(JGroupsTransportFactory.PORT, port)
                .set(JGroupsTransportFactory.PORT_RANGE, "5")
                .build();
        out.println("PID " + ProcessHandle.current().pid());
        try (LockService service = LockService.start(config)) {
            while (service.view().size() < members) {
                Thread.sleep(20);
            }
            out.println("READY");
            DistributedLock lock = service.lock("fenced-store");
            long token = -1;
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.equals("exit")) {
                try {
                    token = handle(line, lock, store, token, out);
                } catch (RuntimeException e) { // e.g. unlock without the lock
                    out.println("ERROR " + e.getMessage());
                }
            }
        }
    }

    /** Runs one command; returns the token of the grant held now (or the last one). */
    private static long handle(String line, DistributedLock lock, FencedFile store, long held, PrintStream out)
            throws InterruptedException {
        long token = held;
        if (line.equals("lock")) {
            if (lock.tryLock(60, TimeUnit.SECONDS)) {
                token = lock.fencingToken();
                out.println("LOCKED " + token);
            } else {
                out.println("TIMEOUT");
            }
        } else if (line.startsWith("write ")) {
            // The token of the grant this node believes it holds: after a pause, maybe an old one.
            try {
                store.write(token, line.substring("write ".length()));
                out.println("ACCEPTED " + token);
            } catch (StaleFencingTokenException e) {
                out.println("REFUSED " + e.token() + " " + e.highestAccepted());
            }
        } else if (line.equals("unlock")) {
            lock.unlock();
            out.println("UNLOCKED");
        } else {
            out.println("UNKNOWN " + line + " (commands: lock, write text, unlock, exit)");
        }
        return token;
    }
}
