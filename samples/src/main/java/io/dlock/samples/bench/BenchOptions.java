package io.dlock.samples.bench;

import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.MutexVariant;
import io.dlock.bench.BenchHarness;
import io.dlock.samples.ChoiceConverter;
import io.dlock.samples.Cli;
import io.dlock.samples.FormatOption;
import io.dlock.samples.MutexAlgorithmsOption;
import io.dlock.samples.NodeCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The options of {@code dlock bench} ({@link BenchCommand}): what to measure, for how long, and where the
 * baselines are. {@link #check()} refuses out-of-range values as usage errors before anything starts.
 */
final class BenchOptions {

    /** The transports a run measures, in the order they run. */
    enum Transports {
        /** JGroups over 127.0.0.1, dlock's default TCP stack. */
        JGROUPS("jgroups"),
        /** The real-time in-memory network. */
        INMEMORY("inmemory"),
        /** JGroups, then in memory. */
        BOTH("jgroups", "inmemory");

        /** The {@code dlock.transport} names, in run order. */
        final List<String> names;

        Transports(String... names) {
            this.names = List.of(names);
        }

        /** Converts {@code jgroups}, {@code inmemory} or {@code both}. */
        static final class Converter extends ChoiceConverter<Transports> {
            /** The converter picocli instantiates. */
            Converter() {
                super("a transport choice", byName(Transports.class));
            }
        }
    }

    /** The stack of {@code --stack} when it is not given: dlock's shipped default TCP stack. */
    static final String DEFAULT_STACK = "default";
    /** The built-in stacks {@code --stack} accepts by name (tcp and secure need settings the bench does not set). */
    static final List<String> STACK_NAMES = List.of(DEFAULT_STACK, "loopback");

    /** The most keys a per-key run picks from: the set of used names stays at 1.25 MB ({@link UsedKeys}). */
    static final int MAX_KEYS = 10_000_000;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--transport", defaultValue = "both", converter = Transports.Converter.class,
            description = "jgroups, inmemory or both (default ${DEFAULT-VALUE})")
    Transports transport;

    @Mixin
    MutexAlgorithmsOption algorithms;

    @Option(names = "--nodes", defaultValue = "3,5", converter = NodeCounts.BenchRange.class, paramLabel = "SPEC",
            description = "cluster sizes of the contended runs, 2-64, as in `dlock sweep` (default ${DEFAULT-VALUE});"
                    + " the uncontended and per-key runs use the smallest")
    NodeCounts nodes;

    @Option(names = "--threads", split = ",", defaultValue = "1,4",
            description = "threads per node of the contended and per-key runs, 1-64 (default ${DEFAULT-VALUE})")
    List<Integer> threads;

    @Option(names = "--handoff", split = ",", defaultValue = "0",
            description = "dlock.lock.local-handoff values to measure, e.g. 0,4,16 (default ${DEFAULT-VALUE})")
    List<Integer> handoffs;

    @Option(names = "--seconds", defaultValue = "1", description = "measured seconds per run (default ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--warmup", defaultValue = "0.5",
            description = "warm-up seconds before each measured run (default ${DEFAULT-VALUE})")
    double warmup;

    /** The most passes of {@code --warm-passes}. */
    static final int MAX_WARM_PASSES = 5;

    @Option(names = "--warm-passes", defaultValue = "1", paramLabel = "N",
            description = "before its measured runs, every JVM runs the workloads this many times unmeasured, so that "
                    + "each system is measured compiled rather than while the JIT still works through its code: dlock "
                    + "runs whole rounds before round 1, and each peer, in a JVM of its own per round, passes over its "
                    + "workloads (on other names) before it measures them; 0-" + MAX_WARM_PASSES
                    + " (default ${DEFAULT-VALUE})")
    int warmPasses;

    @Option(names = "--lock-timeout", defaultValue = "30",
            description = "seconds a single lock() may take before the run counts it as a failure; the first one "
                    + "writes every thread's stack to standard error (default ${DEFAULT-VALUE})")
    int lockTimeout;

    @Option(names = "--no-floor", negatable = false, description = "skip the JGroups round-trip and multicast floor")
    boolean noFloor;

    @Option(names = "--no-uncontended", negatable = false, description = "skip the uncontended latency runs")
    boolean noUncontended;

    @Option(names = "--per-key", split = ",", paramLabel = "K",
            description = "also run the per-key workload for each K, 1-" + MAX_KEYS + ", e.g. 10,1000,100000: on a "
                    + "fresh cluster of the smallest --nodes, every node runs T threads (each --threads) that lock a "
                    + "uniformly random one of K names (key-0 .. key-K-1) per entry; reports throughput, messages per "
                    + "entry and the heap retained per name once the idle names are reclaimed (default: not run)")
    List<Integer> perKey;

    @Option(names = "--idle", negatable = false,
            description = "measure only what an idle cluster costs, instead of the lock runs: for each algorithm and "
                    + "--nodes, a fresh cluster locks and unlocks once on node 1, then nobody asks; reports the messages "
                    + "the nodes send per second and the CPU of this JVM in cores, over --seconds after --warmup")
    boolean idle;

    @Option(names = "--mutex-option", paramLabel = "NAME=VALUE", converter = MutexOption.Converter.class,
            description = "a dlock.mutex.NAME option of every cluster, e.g. idle-pause-ms=10 for token-ring; "
                    + "repeatable; every chosen algorithm must declare it (default: none)")
    List<MutexOption> mutexOptions;

    @Option(names = "--grant-spin-us", paramLabel = "US",
            description = "dlock.lock.grant-spin-us of every dlock cluster: how long a thread that asked for a lock "
                    + "spins for its grant before it parks, 0 (park at once) to " + DlockConfig.MAX_GRANT_SPIN_US
                    + " (default: dlock's, " + DlockConfig.DEFAULT_GRANT_SPIN_US + ")")
    Integer grantSpinUs;

    @Option(names = "--idle-expiry-ms", defaultValue = "1000", paramLabel = "MS",
            description = "dlock.lock.idle-expiry-ms of dlock's own per-key clusters, at least 100; the runs paired "
                    + "with a peer's keep dlock's default (default ${DEFAULT-VALUE})")
    long idleExpiryMs;

    @Option(names = "--stack", defaultValue = DEFAULT_STACK, paramLabel = "STACK",
            description = "JGroups stack of the clusters and the floor: default (dlock's shipped TCP stack, the "
                    + "default), loopback, or a stack file ending in .xml with the default stack's placeholders, e.g. a "
                    + "variant of it")
    String stack;

    @Option(names = "--port", defaultValue = "24000",
            description = "first TCP port of the JGroups clusters; each takes a block of nodes+4 (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--baselines", negatable = false,
            description = "also run the peers, the locks users would pick instead (JGroups CENTRAL_LOCK2, Hazelcast CP "
                    + "FencedLock, Redisson RLock and RFencedLock on redis-server, Curator on 3 ZooKeeper servers, etcd "
                    + "on 3 members), each in its own JVM from the baselines jar (build it with mvn -Pbaselines "
                    + "package), on the same workloads at the smallest --nodes, each run right after a run of dlock's "
                    + "default algorithm on the same workload, and print ratios dlock/peer of those pairs; a peer "
                    + "whose server is not installed is skipped with a message saying how to install it")
    boolean baselines;

    @Option(names = "--peers", split = ",", paramLabel = "PEER",
            description = "with --baselines, only these peers (default: all the baselines jar has, see its usage)")
    List<String> peers;

    /** The most rounds of {@code --rounds}. */
    static final int MAX_ROUNDS = 20;

    @Option(names = "--rounds", defaultValue = "1",
            description = "run everything this many times, round by round (a round: dlock's runs, then with "
                    + "--baselines each peer's runs, each right after a run of dlock's on the same workload); 1-"
                    + MAX_ROUNDS + " (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--baselines-jar", defaultValue = "samples/baselines/target/dlock-baselines.jar",
            description = "the baselines jar (default ${DEFAULT-VALUE})")
    Path baselinesJar;

    @Option(names = "--goals-from", paramLabel = "FILE",
            description = "measure nothing: print the speed goals of a saved run (its --format json output)")
    Path goalsFrom;

    @Mixin
    FormatOption format;

    /** Refuses, as a usage error of the command, every value out of its range. */
    void check() {
        for (int t : threads) {
            Cli.checkWithin(mixee, "--threads", t, 1, 64);
        }
        for (int h : handoffs) {
            Cli.checkWithin(mixee, "--handoff", h, 0, DlockConfig.MAX_LOCAL_HANDOFF);
        }
        if (!(seconds > 0 && seconds <= 3600)) {
            throw Cli.invalid(mixee, "--seconds", Cli.number(seconds) + " is outside (0, 3600]: more than 0, at most an hour");
        }
        Cli.checkWithin(mixee, "--warmup", warmup, 0, 3600);
        Cli.checkAtLeast(mixee, "--lock-timeout", lockTimeout, 1);
        Cli.checkWithin(mixee, "--rounds", rounds, 1, MAX_ROUNDS);
        Cli.checkWithin(mixee, "--warm-passes", warmPasses, 0, MAX_WARM_PASSES);
        if (peers != null && !baselines) {
            throw Cli.invalid(mixee, "--peers", String.join(",", peers) + " given without --baselines, which runs them");
        }
        Cli.checkWithin(mixee, "--port", port, 1024, 60_000);
        if (grantSpinUs != null) {
            Cli.checkWithin(mixee, "--grant-spin-us", grantSpinUs, 0, DlockConfig.MAX_GRANT_SPIN_US);
        }
        if (!STACK_NAMES.contains(stack) && !(stack.endsWith(".xml") && Files.isRegularFile(Path.of(stack)))) {
            throw Cli.invalid(mixee, "--stack", stack + " is neither " + String.join(" nor ", STACK_NAMES)
                    + " nor a stack file ending in .xml");
        }
        for (int k : perKeys()) {
            Cli.checkWithin(mixee, "--per-key", k, 1, MAX_KEYS);
        }
        Cli.checkWithin(mixee, "--idle-expiry-ms", idleExpiryMs, DlockConfig.MIN_IDLE_EXPIRY_MS,
                DlockConfig.MAX_IDLE_EXPIRY_MS);
        if (goalsFrom != null && !Files.isRegularFile(goalsFrom)) {
            throw Cli.invalid(mixee, "--goals-from", "no file at " + goalsFrom.toAbsolutePath()
                    + "; give the output of dlock bench --format json");
        }
        if (idle && (perKey != null || baselines)) {
            throw Cli.invalid(mixee, "--idle", "measures only the idle cost; it cannot be combined with "
                    + (perKey != null ? "--per-key" : "--baselines"));
        }
        checkMutexOptions();
        if (baselines && !Files.isRegularFile(baselinesJar)) {
            throw Cli.invalid(mixee, "--baselines-jar", "no jar at " + baselinesJar.toAbsolutePath()
                    + "; build it with mvn -B -Pbaselines -pl samples/baselines package");
        }
    }

    /**
     * Refuses a {@code --mutex-option} that a chosen algorithm does not declare, or whose value it does not accept,
     * with the configuration's own message (which names the key and what is allowed).
     */
    private void checkMutexOptions() {
        if (mutexOptions().isEmpty()) {
            return;
        }
        for (MutexVariant variant : algorithms.chosen()) {
            DlockConfig.Builder b = DlockConfig.builder().transport("inmemory").set(DlockConfig.MUTEX, variant.name());
            mutexOptions().forEach(b::mutexOption);
            try {
                b.build();
            } catch (DlockConfigException e) {
                throw Cli.invalid(mixee, "--mutex-option", e.getMessage());
            }
        }
    }

    /** The {@code --mutex-option}s by name, in the order given (a name given again: its last value); empty without any. */
    Map<String, String> mutexOptions() {
        Map<String, String> byName = new LinkedHashMap<>();
        if (mutexOptions != null) {
            mutexOptions.forEach(o -> byName.put(o.name(), o.value()));
        }
        return byName;
    }

    /**
     * One {@code --mutex-option NAME=VALUE}: the option {@code dlock.mutex.NAME} of every cluster.
     *
     * @param name  the option's name, without the {@code dlock.mutex.} prefix
     * @param value its value, as written
     */
    record MutexOption(String name, String value) {

        /** Converts {@code NAME=VALUE}; anything else is refused, naming the value and the form. */
        static final class Converter implements ITypeConverter<MutexOption> {
            @Override
            public MutexOption convert(String text) {
                int eq = text.indexOf('=');
                if (eq <= 0) {
                    throw new TypeConversionException("'" + text + "' is not NAME=VALUE; e.g. idle-pause-ms=10");
                }
                return new MutexOption(text.substring(0, eq).trim(), text.substring(eq + 1).trim());
            }
        }
    }

    /**
     * The peers {@code --baselines} runs: those of {@code --peers}, else all of {@code known}, in the order of
     * {@code known}.
     *
     * @param known the peers the baselines jar has, in its run order
     * @throws picocli.CommandLine.ParameterException naming a peer of {@code --peers} the jar does not have
     */
    List<String> peers(List<String> known) {
        if (peers == null) {
            return known;
        }
        for (String p : peers) {
            if (!known.contains(p)) {
                throw Cli.invalid(mixee, "--peers", p + " is not a peer of " + baselinesJar + "; it has "
                        + String.join(", ", known));
            }
        }
        return known.stream().filter(peers::contains).toList();
    }

    /** The K of each per-key run, in the order given; empty (no per-key run) without {@code --per-key}. */
    List<Integer> perKeys() {
        return perKey == null ? List.of() : perKey;
    }

    /** The measuring loops with these options' warm-up, measured time and lock timeout. */
    BenchHarness harness() {
        return new BenchHarness(warmup, seconds, lockTimeout);
    }
}
