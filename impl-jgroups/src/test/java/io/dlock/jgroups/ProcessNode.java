package io.dlock.jgroups;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child JVM of {@link MultiProcessTest}: one dlock node on the default TCP stack that increments a
 * counter held in a file under the lock (read, sleep a little, write). Talks to the test on stdin/stdout:
 * prints {@code READY} once the view has the expected size and waits for {@code go}; prints
 * {@code HOLD v} when it holds the lock and has read v (in controlled mode it then waits for {@code go},
 * so the test can kill it while it holds the lock), {@code INC v+1} after writing, {@code DONE} at the
 * end, and leaves when it reads {@code exit}.
 *
 * <p>Arguments: cluster algorithm nodeId port expectedMembers counterFile increments controlled.
 */
public final class ProcessNode {

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
                .set(DlockConfig.JGROUPS_STACK, "default")
                .set(DlockConfig.JGROUPS_BIND_ADDR, "127.0.0.1")
                .set(DlockConfig.JGROUPS_PORT, Integer.toString(port))
                .set(DlockConfig.JGROUPS_PORT_RANGE, "5")
                .build();
        try (LockService service = LockService.start(config)) {
            while (service.view().size() < members) {
                Thread.sleep(20);
            }
            out.println("READY");
            if (!"go".equals(in.readLine())) {
                return;
            }
            DistributedLock lock = service.lock("file-counter");
            for (int i = 0; i < increments; i++) {
                lock.lock();
                try {
                    long value = Long.parseLong(Files.readString(file).trim());
                    out.println("HOLD " + value);
                    if (controlled && !"go".equals(in.readLine())) {
                        return;
                    }
                    Thread.sleep(10);
                    Files.writeString(file, Long.toString(value + 1));
                    out.println("INC " + (value + 1));
                } finally {
                    lock.unlock();
                }
            }
            out.println("DONE");
            String line;
            while ((line = in.readLine()) != null && !line.equals("exit")) {
                // wait until every node is done, so that nobody's leaving changes the others' views
            }
        }
    }
}
