package io.dlock.inmemory.bench;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.inmemory.sim.DelayModel;
import io.dlock.inmemory.sim.Simulation;
import io.dlock.inmemory.sim.SimulationResult;
import io.dlock.inmemory.sim.Workload;
import io.dlock.mutex.raymond.RaymondDefinition;
import io.dlock.protocol.AlgorithmDefinitions;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Measurements of the token algorithms' costs, not a test (it asserts nothing and prints figures):
 * <ol>
 *   <li>messages per entry of Raymond and Naimi-Trehel (and, for comparison, Suzuki-Kasami and the
 *       token ring) on the
 *       simulator for N = 8, 64, 256 under a random, a light and a heavy workload, against
 *       log2 N and the bound 2D;</li>
 *   <li>what an idle token ring costs on the real-time in-memory network: messages per second and
 *       CPU, for 3 and 5 nodes and several values of {@code idle-pause-ms}.</li>
 * </ol>
 * Run: {@code mvn -B -o -q -pl api,impl-inmemory -am test-compile} then
 * {@code java -cp <test classpath> io.dlock.inmemory.bench.TokenAlgorithmMeasurements [sim|ring]}.
 */
public final class TokenAlgorithmMeasurements {

    private TokenAlgorithmMeasurements() {
    }

    public static void main(String[] args) throws Exception {
        String what = args.length == 0 ? "all" : args[0];
        if (what.equals("all") || what.equals("sim")) {
            simulator();
        }
        if (what.equals("all") || what.equals("ring")) {
            idleRing();
        }
    }

    private static void simulator() {
        System.out.println("| algorithm | N | log2 N | 2D | default (think 0-20) | moderate (think 0-20N) | light | heavy |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (MutexAlgorithm a : List.of(MutexAlgorithm.RAYMOND, MutexAlgorithm.NAIMI_TREHEL, MutexAlgorithm.SUZUKI_KASAMI,
                MutexAlgorithm.TOKEN_RING)) {
            for (int n : new int[] {8, 64, 256}) {
                int seeds = n == 256 ? 4 : 10;
                double random = average(a, n, seeds, Workload.perNode(4), DelayModel.uniform(1, 10));
                double moderate = average(a, n, seeds, Workload.perNode(4).think(0, 20L * n), DelayModel.uniform(1, 10));
                // light: requests far apart (think up to 50 000), so they rarely overlap
                double light = average(a, n, seeds, Workload.perNode(4).think(0, 50_000L * n / 8), DelayModel.uniform(1, 10));
                // heavy: every node asks again as soon as it leaves
                double heavy = average(a, n, seeds, Workload.perNode(6).think(0, 0).hold(1, 5), DelayModel.uniform(1, 10));
                System.out.printf(Locale.ROOT, "| %s | %d | %.0f | %d | %.2f | %.2f | %.2f | %.2f |%n", a.configName(), n,
                        Math.log(n) / Math.log(2), 2 * RaymondDefinition.treeDiameter(n), random, moderate, light, heavy);
            }
        }
    }

    private static double average(MutexAlgorithm a, int n, int seeds, Workload w, DelayModel delay) {
        long messages = 0;
        long entries = 0;
        for (long seed = 1; seed <= seeds; seed++) {
            SimulationResult r = Simulation.of(AlgorithmDefinitions.mutex(a)).nodes(n).seed(seed).workload(w).delay(delay)
                    .encodeMessages(false).run();
            if (!r.ok() || r.ungranted() != 0) {
                throw new AssertionError(r.describeFailure());
            }
            messages += r.messages();
            entries += r.entries();
        }
        return (double) messages / entries;
    }

    private static void idleRing() throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("| nodes | idle-pause-ms | TOKEN messages/s | CPU (cores) |");
        System.out.println("|---|---|---|---|");
        for (int n : new int[] {3, 5}) {
            for (long pause : new long[] {0, 1, 10, 100}) {
                String cluster = "ring-" + UUID.randomUUID();
                List<LockService> nodes = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    nodes.add(LockService.start(DlockConfig.builder().mutex(MutexAlgorithm.TOKEN_RING)
                            .mutexOption("idle-pause-ms", Long.toString(pause)).cluster(cluster).nodeId(i).build()));
                }
                while (nodes.stream().anyMatch(s -> s.view().size() != n)) {
                    Thread.sleep(10);
                }
                DistributedLock lock = nodes.get(0).lock("idle");
                lock.lock(); // creates the lock everywhere (census), then the token circulates idle
                lock.unlock();
                Thread.sleep(500);
                long m0 = sent(nodes);
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                Thread.sleep(3000);
                long m1 = sent(nodes);
                long cpu1 = os.getProcessCpuTime();
                long t1 = System.nanoTime();
                double seconds = (t1 - t0) / 1e9;
                System.out.printf(Locale.ROOT, "| %d | %d | %.0f | %.2f |%n", n, pause, (m1 - m0) / seconds,
                        (cpu1 - cpu0) / 1e9 / seconds);
                nodes.forEach(LockService::close);
            }
        }
    }

    private static long sent(List<LockService> nodes) {
        return nodes.stream().mapToLong(s -> s.metrics().messagesSent()).sum();
    }
}
