package io.dlock.samples.examples;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The algorithm chosen in a properties file, not in code.
 *
 * <p>The code below never names an algorithm: {@code DlockConfig.load(path)} (or
 * {@code DlockConfig.fromProperties}) reads {@code dlock.mutex}, its options and everything else, and
 * rejects an unknown key or value with a message naming it. To switch from Suzuki-Kasami to Raymond,
 * edit {@code dlock.mutex=} in the file and restart; no rebuild. The file shipped in the jar is
 * {@code dlock-example.properties} (in {@code samples/src/main/resources}); pass another file as the
 * first argument. {@code DlockConfig.fromSystemProperties()} does the same with {@code -Ddlock.mutex=...}.
 *
 * <p>Run: {@code java -cp samples/target/dlock.jar io.dlock.samples.examples.PropertiesConfigExample [file]}.
 */
public final class PropertiesConfigExample {

    /** The properties file shipped in the jar. */
    public static final String RESOURCE = "/dlock-example.properties";

    private PropertiesConfigExample() {
    }

    /** The configuration in {@code file}, or in the shipped {@value #RESOURCE} if {@code file} is null. */
    public static DlockConfig load(Path file) throws IOException {
        if (file != null) {
            return DlockConfig.load(file);
        }
        Properties p = new Properties();
        try (InputStream in = PropertiesConfigExample.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is not on the class path");
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return DlockConfig.fromProperties(p);
    }

    /**
     * Starts three nodes from {@code config} (each with its own node id and a fresh cluster name), takes
     * the lock {@code rounds} times on each, and returns the last fencing token.
     */
    public static long run(DlockConfig config, int rounds) throws InterruptedException {
        String cluster = config.cluster() + "-" + UUID.randomUUID();
        List<LockService> nodes = new ArrayList<>();
        long fence = 0;
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(LockService.start(config.toBuilder().cluster(cluster).nodeId(i).build()));
            }
            for (int r = 0; r < rounds; r++) {
                for (LockService node : nodes) {
                    DistributedLock lock = node.lock("orders");
                    if (!lock.tryLock(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException(node.nodeId() + " could not take the lock in 10 s");
                    }
                    try {
                        fence = lock.fencingToken();
                    } finally {
                        lock.unlock();
                    }
                }
            }
        } finally {
            nodes.forEach(LockService::close);
        }
        return fence;
    }

    /** Loads the file named by the first argument (default: the shipped one) and runs three nodes with it. */
    public static void main(String[] args) throws IOException, InterruptedException {
        DlockConfig config = load(args.length > 0 ? Path.of(args[0]) : null);
        long fence = run(config, 5);
        System.out.printf("dlock.mutex=%s (from %s): 3 nodes took the lock 5 times each, last fencing token %d%n",
                config.mutex().configName(), args.length > 0 ? args[0] : "dlock-example.properties in the jar", fence);
    }
}
