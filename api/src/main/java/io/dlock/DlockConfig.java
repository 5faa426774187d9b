package io.dlock;

import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.TransportFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The validated configuration of one dlock node. Built from a {@link #builder() builder}, a
 * {@link #fromProperties(Properties) Properties} object or file, or {@link #fromSystemProperties()
 * system properties}; all three go through the same validation, so a wrong key or value fails the
 * same way, with a {@link DlockConfigException} that names the key, the value and what is allowed.
 *
 * <h2>Keys</h2>
 * <table>
 *   <caption>Configuration keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code dlock.mutex}</td><td>{@code centralized} ({@link #DEFAULT_MUTEX})</td><td>mutual-exclusion algorithm, one of
 *       {@link MutexAlgorithm}'s configuration names</td></tr>
 *   <tr><td>{@code dlock.mutex.<option>}</td><td></td><td>an option of the chosen algorithm, e.g.
 *       {@code dlock.mutex.send-denied=true} (centralized), {@code dlock.mutex.immediate-ack=true} (lamport) or
 *       {@code dlock.mutex.idle-pause-ms=10} (token-ring); the algorithm checks the value</td></tr>
 *   <tr><td>{@code dlock.election}</td><td>{@code bully} ({@link #DEFAULT_ELECTION})</td><td>leader-election algorithm, one of
 *       {@link ElectionAlgorithm}'s configuration names</td></tr>
 *   <tr><td>{@code dlock.election.<option>}</td><td></td><td>an option of the chosen election, e.g.
 *       {@code dlock.election.ok-timeout-ms=200} (bully) or {@code dlock.election.ack-timeout-ms=200} (ring)</td></tr>
 *   <tr><td>{@code dlock.transport}</td><td>{@value #DEFAULT_TRANSPORT}</td><td>{@code inmemory} or another transport
 *       on the class path</td></tr>
 *   <tr><td>{@code dlock.cluster}</td><td>{@value #DEFAULT_CLUSTER}</td><td>cluster name; nodes with the same name form one cluster</td></tr>
 *   <tr><td>{@code dlock.cluster.size}</td><td>not set</td><td>how many nodes the cluster has, 1 to
 *       {@value #MAX_CLUSTER_SIZE}; a
 *       view is primary (grants locks, elects leaders) only with more than half of them, and
 *       {@code LockService.start} waits until this node is in such a view. Set it in production: without
 *       it a node's first view is primary, so nodes that start together and do not find each other at once
 *       may each grant until their clusters merge</td></tr>
 *   <tr><td>{@code dlock.cluster.lease-ms}</td><td>{@value #DEFAULT_LEASE_MS}</td><td>the epoch lease,
 *       {@value #MIN_LEASE_MS} to {@value #MAX_LEASE_MS}: a node
 *       grants a lock, hands it to another of its threads or enters again with a token it holds only while a
 *       quorum of its view has confirmed, within this time on the node's own clock, that they are still in
 *       the same view; a view that excludes a member that was still confirming waits this long (plus 1/16)
 *       before it grants. A node stopped or cut off longer than this grants nothing when it resumes, and its
 *       holder learns that it lost the lock. Needs the same value on every node; see {@link #lease()}</td></tr>
 *   <tr><td>{@code dlock.node.id}</td><td>assigned</td><td>this node's id, 0 to 2<sup>63</sup>-1, unique in the cluster</td></tr>
 *   <tr><td>{@code dlock.lock.try-timeout-ms}</td><td>{@value #DEFAULT_TRY_TIMEOUT_MS}</td><td>how long the
 *       untimed {@code tryLock()} waits for an answer, 0 to {@value #MAX_TRY_TIMEOUT_MS}</td></tr>
 *   <tr><td>{@code dlock.lock.local-handoff}</td><td>{@value #DEFAULT_LOCAL_HANDOFF}</td><td>how many times
 *       in a row a held lock may pass between this node's own waiting threads before it goes back to the
 *       cluster, 0 (strict fairness) to {@value #MAX_LOCAL_HANDOFF}; must be the same on every node (it scales the fencing tokens)</td></tr>
 *   <tr><td>{@code dlock.lock.grant-spin-us}</td><td>{@value #DEFAULT_GRANT_SPIN_US}</td><td>how long a
 *       thread that has just asked the cluster for a lock stays on its processor, yielding it at every turn, before
 *       it parks, 0 (park at once) to {@value #MAX_GRANT_SPIN_US} microseconds: a grant that comes within it is
 *       taken without a thread wake-up; at most one fewer thread than the JVM has processors spins at a time. Only
 *       where processors are to spare; see {@link #grantSpin()}</td></tr>
 *   <tr><td>{@code dlock.lock.idle-expiry-ms}</td><td>{@value #DEFAULT_IDLE_EXPIRY_MS}</td><td>how long a lock
 *       must be unused on every node before its state is reclaimed cluster-wide, 0 (never reclaim) or
 *       {@value #MIN_IDLE_EXPIRY_MS} to {@value #MAX_IDLE_EXPIRY_MS}; a
 *       {@code DistributedLock} object kept by the application works on after its state was reclaimed (the
 *       next use recreates it); see {@link #idleExpiry()}</td></tr>
 *   <tr><td>{@code dlock.lock.max-live}</td><td>{@value #DEFAULT_MAX_LIVE}</td><td>how many locks a node keeps
 *       in use before the least recently used become candidates for reclamation early, without waiting for the idle
 *       expiry, 0 (no bound) or {@value #MIN_MAX_LIVE} to {@value #MAX_MAX_LIVE}; see {@link #maxLiveLocks()}</td></tr>
 *   <tr><td>{@code dlock.metrics.jmx}</td><td>{@value #DEFAULT_METRICS_JMX}</td><td>{@code true} registers the node's and each
 *       lock's metrics as MBeans in the platform MBean server (names in {@link io.dlock.metrics})</td></tr>
 *   <tr><td>{@code dlock.<transport>.<setting>}</td><td></td><td>a setting of a transport on the class
 *       path, declared and checked by its {@link io.dlock.spi.TransportFactory}, e.g. {@code dlock.inmemory.delay-ms}
 *       (see {@code InMemoryTransportFactory}) or {@code dlock.jgroups.port} (see {@code JGroupsTransportFactory});
 *       checked whichever transport {@code dlock.transport} selects</td></tr>
 * </table>
 * Every default is a constant of this class ({@code DEFAULT_*}), and every bound too ({@code MIN_*},
 * {@code MAX_*}); the code uses them, so this table and the code cannot disagree.
 */
public final class DlockConfig {

    /** Key of the mutual-exclusion algorithm. */
    public static final String MUTEX = "dlock.mutex";
    /** Default of {@link #MUTEX}: {@code centralized}. */
    public static final MutexAlgorithm DEFAULT_MUTEX = MutexAlgorithm.CENTRALIZED;
    /** Key of the leader-election algorithm. */
    public static final String ELECTION = "dlock.election";
    /** Default of {@link #ELECTION}: {@code bully}. */
    public static final ElectionAlgorithm DEFAULT_ELECTION = ElectionAlgorithm.BULLY;
    /** Key of the transport. */
    public static final String TRANSPORT = "dlock.transport";
    /** Default of {@link #TRANSPORT}: the in-memory transport, {@value}. */
    public static final String DEFAULT_TRANSPORT = "inmemory";
    /** Key of the cluster name. */
    public static final String CLUSTER = "dlock.cluster";
    /** Default of {@link #CLUSTER}: {@value}. */
    public static final String DEFAULT_CLUSTER = "dlock";
    /**
     * Key of the configured cluster size n: a view is primary (may grant and elect) only with more than
     * n/2 members. Optional; set it in production.
     */
    public static final String CLUSTER_SIZE = "dlock.cluster.size";
    /** Largest allowed {@link #CLUSTER_SIZE}. */
    public static final int MAX_CLUSTER_SIZE = 10_000;
    /** Key of this node's id. */
    public static final String NODE_ID = "dlock.node.id";
    /** Key of the untimed {@code tryLock()} bound. */
    public static final String TRY_TIMEOUT_MS = "dlock.lock.try-timeout-ms";
    /** Default of {@link #TRY_TIMEOUT_MS}, in milliseconds: {@value}. */
    public static final int DEFAULT_TRY_TIMEOUT_MS = 1000;
    /** Largest allowed {@link #TRY_TIMEOUT_MS} (one day): {@value}. */
    public static final int MAX_TRY_TIMEOUT_MS = 86_400_000;
    /** Key of the epoch lease: how long a member's agreement on its view lets a node act (see {@link #lease()}). */
    public static final String LEASE_MS = "dlock.cluster.lease-ms";
    /** Default of {@link #LEASE_MS}, in milliseconds: {@value}. */
    public static final int DEFAULT_LEASE_MS = 1000;
    /** Smallest allowed {@link #LEASE_MS}. */
    public static final int MIN_LEASE_MS = 100;
    /** Largest allowed {@link #LEASE_MS}: {@value}. */
    public static final int MAX_LEASE_MS = 60_000;
    /** Key of the bound on local hand-offs of a lock between this node's threads (0 = off). */
    public static final String LOCAL_HANDOFF = "dlock.lock.local-handoff";
    /** Default of {@link #LOCAL_HANDOFF}: {@value} (strict fairness between nodes). */
    public static final int DEFAULT_LOCAL_HANDOFF = 0;
    /** Largest allowed {@link #LOCAL_HANDOFF}. */
    public static final int MAX_LOCAL_HANDOFF = 1000;
    /** Key of how long a thread that asked the cluster for a lock spins before it parks, in microseconds (0 = never). */
    public static final String GRANT_SPIN_US = "dlock.lock.grant-spin-us";
    /** Default of {@link #GRANT_SPIN_US}, in microseconds: {@value} (park at once; see {@link #grantSpin()}). */
    public static final int DEFAULT_GRANT_SPIN_US = 0;
    /** Largest allowed {@link #GRANT_SPIN_US} (10 ms): {@value}. */
    public static final int MAX_GRANT_SPIN_US = 10_000;
    /** Key of how long a lock must be unused on every node before its state is reclaimed (0 = never). */
    public static final String IDLE_EXPIRY_MS = "dlock.lock.idle-expiry-ms";
    /** Default of {@link #IDLE_EXPIRY_MS}, in milliseconds: {@value}. */
    public static final int DEFAULT_IDLE_EXPIRY_MS = 60_000;
    /** Smallest non-zero {@link #IDLE_EXPIRY_MS}: below it a lock in steady use would be reclaimed between uses. */
    public static final int MIN_IDLE_EXPIRY_MS = 100;
    /** Largest allowed {@link #IDLE_EXPIRY_MS} (one day): {@value}. */
    public static final int MAX_IDLE_EXPIRY_MS = 86_400_000;
    /** Key of how many locks a node keeps in use before the least recently used become reclamation candidates (0 = no bound). */
    public static final String MAX_LIVE = "dlock.lock.max-live";
    /** Default of {@link #MAX_LIVE}: {@value}. */
    public static final int DEFAULT_MAX_LIVE = 100_000;
    /** Smallest non-zero {@link #MAX_LIVE}. */
    public static final int MIN_MAX_LIVE = 16;
    /** Largest allowed {@link #MAX_LIVE}: {@value}. */
    public static final int MAX_MAX_LIVE = 100_000_000;
    /** Key of whether the node registers its metrics as JMX MBeans ({@code true} or {@code false}). */
    public static final String METRICS_JMX = "dlock.metrics.jmx";
    /** Default of {@link #METRICS_JMX}: {@value}. */
    public static final boolean DEFAULT_METRICS_JMX = false;
    private static final Set<String> KEYS = Set.of(MUTEX, ELECTION, TRANSPORT, CLUSTER, CLUSTER_SIZE, NODE_ID, TRY_TIMEOUT_MS,
            LOCAL_HANDOFF, GRANT_SPIN_US, IDLE_EXPIRY_MS, MAX_LIVE, METRICS_JMX, LEASE_MS);
    private static final String MUTEX_OPTION_PREFIX = MUTEX + ".";
    private static final String ELECTION_OPTION_PREFIX = ELECTION + ".";

    private final Map<String, String> values;
    private final MutexAlgorithm mutex;
    private final Map<String, String> mutexOptions;
    private final ElectionAlgorithm election;
    private final Map<String, String> electionOptions;
    private final String transport;
    private final String cluster;
    private final OptionalLong nodeId;
    private final OptionalInt clusterSize;
    private final Duration tryTimeout;
    private final int localHandoff;
    private final Duration grantSpin;
    private final boolean metricsJmx;
    private final Duration idleExpiry;
    private final int maxLive;
    private final Duration lease;

    private DlockConfig(Map<String, String> raw) {
        List<TransportFactory> transports = new ArrayList<>();
        ServiceLoader.load(TransportFactory.class, DlockConfig.class.getClassLoader()).forEach(transports::add);
        for (String key : raw.keySet()) {
            if (!KEYS.contains(key) && !key.startsWith(MUTEX_OPTION_PREFIX) && !key.startsWith(ELECTION_OPTION_PREFIX)
                    && transports.stream().noneMatch(t -> key.startsWith(settingPrefix(t)))) {
                StringBuilder prefixes = new StringBuilder();
                transports.forEach(t -> prefixes.append(", ").append(settingPrefix(t)).append("<setting>"));
                throw new DlockConfigException("unknown configuration key '" + key + "' (value '" + raw.get(key)
                        + "'); allowed keys: " + String.join(", ", new TreeSet<>(KEYS)) + ", " + MUTEX_OPTION_PREFIX
                        + "<option>, " + ELECTION_OPTION_PREFIX + "<option>" + prefixes);
            }
        }
        this.values = Collections.unmodifiableMap(new TreeMap<>(raw));
        String mutexName = raw.getOrDefault(MUTEX, DEFAULT_MUTEX.configName());
        Optional<MutexVariant> variant = MutexVariant.named(mutexName);
        this.mutex = variant.map(MutexVariant::algorithm).orElseGet(() -> MutexAlgorithm.fromConfigName(mutexName));
        MutexProtocolDefinition<?> mutexDefinition = AlgorithmDefinitions.mutex(mutex);
        ProtocolOptions explicit = options(raw, MUTEX_OPTION_PREFIX, MUTEX + "=" + mutex.configName(),
                mutexDefinition.optionKeys(), mutexDefinition::validateOptions);
        this.mutexOptions = sorted(variant.map(v -> withVariant(v, explicit)).orElse(explicit).values());
        this.election = ElectionAlgorithm.fromConfigName(raw.getOrDefault(ELECTION, DEFAULT_ELECTION.configName()));
        this.electionOptions = sorted(options(raw, ELECTION_OPTION_PREFIX, ELECTION + "=" + election.configName(),
                AlgorithmDefinitions.election(election).map(d -> d.optionKeys()).orElse(Set.of()),
                DlockConfig::validateElectionOptions).values());
        this.transport = requireName(TRANSPORT, raw.getOrDefault(TRANSPORT, DEFAULT_TRANSPORT));
        this.cluster = requireName(CLUSTER, raw.getOrDefault(CLUSTER, DEFAULT_CLUSTER));
        this.nodeId = raw.containsKey(NODE_ID)
                ? OptionalLong.of(parseLong(NODE_ID, raw.get(NODE_ID), 0, Long.MAX_VALUE))
                : OptionalLong.empty();
        this.tryTimeout = Duration.ofMillis(parseLong(raw, TRY_TIMEOUT_MS, DEFAULT_TRY_TIMEOUT_MS, 0, MAX_TRY_TIMEOUT_MS));
        this.clusterSize = raw.containsKey(CLUSTER_SIZE)
                ? OptionalInt.of((int) parseLong(CLUSTER_SIZE, raw.get(CLUSTER_SIZE), 1, MAX_CLUSTER_SIZE))
                : OptionalInt.empty();
        this.localHandoff = (int) parseLong(raw, LOCAL_HANDOFF, DEFAULT_LOCAL_HANDOFF, 0, MAX_LOCAL_HANDOFF);
        this.grantSpin = Duration.ofNanos(1000L * parseLong(raw, GRANT_SPIN_US, DEFAULT_GRANT_SPIN_US, 0,
                MAX_GRANT_SPIN_US));
        this.metricsJmx = raw.containsKey(METRICS_JMX) ? parseBoolean(METRICS_JMX, raw.get(METRICS_JMX)) : DEFAULT_METRICS_JMX;
        long expiry = parseLong(raw, IDLE_EXPIRY_MS, DEFAULT_IDLE_EXPIRY_MS, 0, MAX_IDLE_EXPIRY_MS);
        if (expiry != 0 && expiry < MIN_IDLE_EXPIRY_MS) {
            throw new DlockConfigException(IDLE_EXPIRY_MS + "=" + expiry + ": must be 0 (never reclaim) or "
                    + MIN_IDLE_EXPIRY_MS + " to " + MAX_IDLE_EXPIRY_MS + " ms");
        }
        this.idleExpiry = Duration.ofMillis(expiry);
        long live = parseLong(raw, MAX_LIVE, DEFAULT_MAX_LIVE, 0, MAX_MAX_LIVE);
        if (live != 0 && live < MIN_MAX_LIVE) {
            throw new DlockConfigException(MAX_LIVE + "=" + live + ": must be 0 (no bound) or " + MIN_MAX_LIVE
                    + " to " + MAX_MAX_LIVE + " locks");
        }
        this.maxLive = (int) live;
        this.lease = Duration.ofMillis(parseLong(raw, LEASE_MS, DEFAULT_LEASE_MS, MIN_LEASE_MS, MAX_LEASE_MS));
        for (TransportFactory t : transports) {
            options(raw, settingPrefix(t), "transport " + t.name(), t.settingKeys(), t::validateSettings);
        }
    }

    /** {@code dlock.<name>.}: the prefix of {@code transport}'s settings. */
    private static String settingPrefix(TransportFactory transport) {
        return "dlock." + transport.name() + ".";
    }

    /**
     * The keys of this class's own settings, those of the table above ({@code dlock.mutex}, {@code dlock.cluster.size},
     * ...): not the algorithms' options nor the transports' settings, which their definitions and factories declare.
     */
    public static Set<String> keys() {
        return KEYS;
    }

    /** A builder with every key at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The configuration in {@code properties}; every key must be a dlock key.
     *
     * @throws DlockConfigException for an unknown key or a bad value
     */
    public static DlockConfig fromProperties(Properties properties) {
        Builder b = builder();
        for (String key : properties.stringPropertyNames()) {
            b.set(key, properties.getProperty(key));
        }
        return b.build();
    }

    /**
     * The configuration in a properties file (UTF-8).
     *
     * @throws IOException          if the file cannot be read
     * @throws DlockConfigException for an unknown key or a bad value
     */
    public static DlockConfig load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return fromProperties(p);
    }

    /**
     * The configuration in the system properties whose names start with {@code dlock.}; other system
     * properties are ignored.
     *
     * @throws DlockConfigException for an unknown {@code dlock.} key or a bad value
     */
    public static DlockConfig fromSystemProperties() {
        Builder b = builder();
        Properties sys = System.getProperties();
        for (String key : sys.stringPropertyNames()) {
            if (key.startsWith("dlock.")) {
                b.set(key, sys.getProperty(key));
            }
        }
        return b.build();
    }

    /** The mutual-exclusion algorithm. */
    public MutexAlgorithm mutex() {
        return mutex;
    }

    /**
     * The options of the mutual-exclusion algorithm: the {@code dlock.mutex.<option>} keys, prefix removed, with
     * their values as given (already checked by the algorithm), plus the options a variant name fixes
     * ({@code dlock.mutex=maekawa-basic} gives {@code basic=true}); unmodifiable, sorted by option. The
     * algorithm's own defaults are not included: an option that is not set has its default.
     */
    public Map<String, String> mutexOptions() {
        return mutexOptions;
    }

    /** The leader-election algorithm. */
    public ElectionAlgorithm election() {
        return election;
    }

    /**
     * The options of the election algorithm ({@code dlock.election.<option>} keys, prefix removed), e.g. bully's
     * {@code ok-timeout-ms}, with their values as given (already checked); unmodifiable, sorted by option.
     */
    public Map<String, String> electionOptions() {
        return electionOptions;
    }

    /** An unmodifiable copy of {@code values}, sorted by key. */
    private static Map<String, String> sorted(Map<String, String> values) {
        return Collections.unmodifiableMap(new TreeMap<>(values));
    }

    /** The variant's fixed options plus the explicit ones; an explicit value may not contradict the variant. */
    private static ProtocolOptions withVariant(MutexVariant variant, ProtocolOptions explicit) {
        ProtocolOptions merged = explicit;
        for (Map.Entry<String, String> fixed : variant.options().entrySet()) {
            String given = explicit.values().get(fixed.getKey());
            if (given != null && !given.equalsIgnoreCase(fixed.getValue())) {
                throw new DlockConfigException(MUTEX_OPTION_PREFIX + fixed.getKey() + "=" + given
                        + " contradicts dlock.mutex=" + variant.name() + ", which means " + MUTEX_OPTION_PREFIX
                        + fixed.getKey() + "=" + fixed.getValue());
            }
            merged = merged.with(fixed.getKey(), fixed.getValue());
        }
        return merged;
    }

    /** Election options: values are booleans or durations in milliseconds. */
    private static void validateElectionOptions(ProtocolOptions options) {
        options.values().forEach((option, value) -> {
            if (!value.equals("true") && !value.equals("false") && !value.matches("[1-9][0-9]{0,7}")) {
                throw new IllegalArgumentException("option " + option + "=" + value
                        + " is not allowed; allowed: true, false, or a duration in milliseconds 1 to 99999999");
            }
        });
    }

    /**
     * The keys of {@code raw} under {@code prefix}, prefix removed, each one of the keys {@code owner} (an
     * algorithm, {@code dlock.mutex=lamport}, or a transport) declares, the values checked together by
     * {@code validate}.
     */
    private static ProtocolOptions options(Map<String, String> raw, String prefix, String owner,
                                           Set<String> allowed, Consumer<ProtocolOptions> validate) {
        Map<String, String> opts = new TreeMap<>();
        for (Map.Entry<String, String> e : raw.entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                continue;
            }
            String option = e.getKey().substring(prefix.length());
            if (!allowed.contains(option)) {
                throw new DlockConfigException("unknown configuration key '" + e.getKey() + "' for " + owner
                        + "; allowed options: "
                        + (allowed.isEmpty() ? "none" : prefix + String.join(", " + prefix, new TreeSet<>(allowed))));
            }
            opts.put(option, e.getValue());
        }
        ProtocolOptions options = new ProtocolOptions(opts);
        try {
            validate.accept(options);
        } catch (IllegalArgumentException bad) {
            String message = bad.getMessage();
            for (String option : opts.keySet()) { // name the full key, as the user wrote it
                message = message.replace("option " + option + "=", prefix + option + "=");
            }
            throw new DlockConfigException(owner + ": " + message);
        }
        return options;
    }

    /** The transport's name. */
    public String transport() {
        return transport;
    }

    /** The cluster name. */
    public String cluster() {
        return cluster;
    }

    /** This node's id, if configured. */
    public OptionalLong nodeId() {
        return nodeId;
    }

    /**
     * {@code dlock.cluster.size}: how many nodes the cluster has when all run, or empty when not set.
     * With it, a view is primary only if it has more than half of them, so that nodes that start alone
     * or in a minority never grant (see {@code io.dlock.membership.PrimaryComponent}); without it, a node's
     * first view is primary, and two nodes that start together and do not find each other at once may
     * both grant until their clusters merge.
     */
    public OptionalInt clusterSize() {
        return clusterSize;
    }

    /** The bound of the untimed {@code tryLock()} ({@code dlock.lock.try-timeout-ms}, default {@value #DEFAULT_TRY_TIMEOUT_MS} ms). */
    public Duration tryTimeout() {
        return tryTimeout;
    }

    /**
     * The epoch lease L ({@code dlock.cluster.lease-ms}, default {@value #DEFAULT_LEASE_MS} ms). Every node asks the other members of
     * its view every L/4 whether they are still in the same view; it grants a lock, hands it between its own
     * threads or enters again with a token it holds only while a quorum answered yes to a question it asked
     * less than L ago, on its own monotonic clock. A member that answered a node X promises not to help a
     * view without X grant until L + L/16 after its last answer to X. So a process resumed after a pause, or
     * a host cut off, acts no more once L has passed, and a view that excludes it grants only after that:
     * one holder at a time and fencing tokens in real-time order, as long as clock rates differ by less than
     * about 3 % (no clock needs to be synchronised). Shorter: a node that was stopped or cut off gives up
     * sooner, and a view that removes a member still talking waits less; longer: short pauses and delays
     * cost no lost holds. The same value on every node.
     */
    public Duration lease() {
        return lease;
    }

    /**
     * How many times in a row a lock this node holds may pass from one local thread to another waiting
     * local thread before it is released to the cluster; 0 (the default, {@link #DEFAULT_LOCAL_HANDOFF})
     * releases it after every holder, for strict fairness between nodes.
     */
    public int localHandoff() {
        return localHandoff;
    }

    /**
     * {@code dlock.lock.grant-spin-us}: how long a thread that has just asked the cluster for a lock waits for the
     * grant on its processor before it parks; {@link Duration#ZERO} (the default) parks at once. The thread calls
     * {@link Thread#yield()} at every turn, and at most one fewer thread than the JVM has processors spins at a time
     * (the others park at once). A grant that comes within this time is taken with no thread wake-up, which on a
     * virtual machine often costs more than the round trip: on the project's 2-vCPU machine an uncontended
     * lock+unlock took about a quarter less time with 100 µs.
     *
     * <p>Turn it on only where the node's host has processors to spare. A spinning thread holds its processor even
     * while it yields (the scheduler may pick it again before a thread that ran longer), so where processors are
     * scarce it delays the threads that bring messages in: with three nodes in one JVM on two processors, one lock
     * contended by one thread per node went to the coordinator's node about twice as often as to each of the others
     * (Jain's index 0.4 to 0.9 instead of 0.98). Set it to about the round trip between nodes.
     */
    public Duration grantSpin() {
        return grantSpin;
    }

    /**
     * {@code dlock.lock.idle-expiry-ms}: how long a lock must be unused (no lock, unlock or message for it)
     * on a node before that node proposes to reclaim it; its state is dropped only when every member agrees
     * that the lock is at rest and no message of it is in flight. {@link Duration#ZERO}: never reclaim.
     * Default {@value #DEFAULT_IDLE_EXPIRY_MS} ms.
     */
    public Duration idleExpiry() {
        return idleExpiry;
    }

    /**
     * {@code dlock.lock.max-live}: how many locks a node keeps in use before the least recently used of them become
     * candidates for reclamation at once, without waiting for {@link #idleExpiry()} (a burst of new names does not
     * keep the memory of every one for the whole expiry). A candidate is still reclaimed only when every member
     * finds it at rest. 0: no bound (time only). Default {@value #DEFAULT_MAX_LIVE}. Has no effect when the idle expiry is 0.
     */
    public int maxLiveLocks() {
        return maxLive;
    }

    /** Whether the node registers its metrics as JMX MBeans ({@code dlock.metrics.jmx}, default {@value #DEFAULT_METRICS_JMX}). */
    public boolean metricsJmx() {
        return metricsJmx;
    }

    /**
     * The settings of the transport named {@code transport} (the {@code dlock.<transport>.<setting>} keys,
     * prefix removed), already checked by its {@link TransportFactory#validateSettings}; unmodifiable, sorted by
     * setting.
     */
    public Map<String, String> transportSettings(String transport) {
        String prefix = "dlock." + transport + ".";
        Map<String, String> settings = new TreeMap<>();
        values.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                settings.put(key.substring(prefix.length()), value);
            }
        });
        return Collections.unmodifiableMap(settings);
    }

    /** Every key that was set explicitly, with its value. */
    public Map<String, String> values() {
        return values;
    }

    /** A builder that starts from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values.putAll(values);
        return b;
    }

    @Override
    public String toString() {
        return "DlockConfig" + values;
    }

    private static String requireName(String key, String value) {
        if (value.isBlank() || value.length() > 200 || !value.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new DlockConfigException(key + "='" + value
                    + "' is not allowed; allowed: 1 to 200 printable ASCII characters without spaces");
        }
        return value;
    }

    private static boolean parseBoolean(String key, String value) {
        String v = value.trim();
        if (v.equals("true") || v.equals("false")) {
            return v.equals("true");
        }
        throw new DlockConfigException(key + "=" + value + " is not a boolean; allowed: true, false");
    }

    /** The value of {@code key} in {@code raw}, checked to be in {@code [min, max]}, or {@code byDefault} if not set. */
    private static long parseLong(Map<String, String> raw, String key, long byDefault, long min, long max) {
        return raw.containsKey(key) ? parseLong(key, raw.get(key), min, max) : byDefault;
    }

    private static long parseLong(String key, String value, long min, long max) {
        long v;
        try {
            v = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new DlockConfigException(key + "=" + value + " is not an integer; allowed: " + min + " to " + max);
        }
        if (v < min || v > max) {
            throw new DlockConfigException(key + "=" + value + " is out of range; allowed: " + min + " to " + max);
        }
        return v;
    }

    /** Collects keys and values; {@link #build()} validates them all at once. Not thread-safe. */
    public static final class Builder {

        private final Map<String, String> values = new LinkedHashMap<>();

        private Builder() {
        }

        /** Sets any key, as a properties file would. Validated by {@link #build()}. */
        public Builder set(String key, String value) {
            values.put(key, value.trim());
            return this;
        }

        /** {@code dlock.mutex}. */
        public Builder mutex(MutexAlgorithm algorithm) {
            return set(MUTEX, algorithm.configName());
        }

        /** {@code dlock.mutex.<option>}. */
        public Builder mutexOption(String option, String value) {
            return set(MUTEX_OPTION_PREFIX + option, value);
        }

        /** {@code dlock.election}. */
        public Builder election(ElectionAlgorithm algorithm) {
            return set(ELECTION, algorithm.configName());
        }

        /** {@code dlock.transport}. */
        public Builder transport(String name) {
            return set(TRANSPORT, name);
        }

        /** {@code dlock.cluster}. */
        public Builder cluster(String name) {
            return set(CLUSTER, name);
        }

        /** {@code dlock.cluster.size}. */
        public Builder clusterSize(int size) {
            return set(CLUSTER_SIZE, Integer.toString(size));
        }

        /** {@code dlock.node.id}. */
        public Builder nodeId(long id) {
            return set(NODE_ID, Long.toString(id));
        }

        /** {@code dlock.cluster.lease-ms}: the epoch lease, whole milliseconds. */
        public Builder lease(Duration lease) {
            return set(LEASE_MS, Long.toString(lease.toMillis()));
        }

        /** {@code dlock.lock.local-handoff}. */
        public Builder localHandoff(int handoffs) {
            return set(LOCAL_HANDOFF, Integer.toString(handoffs));
        }

        /** {@code dlock.lock.grant-spin-us}, whole microseconds; {@link Duration#ZERO} parks at once. */
        public Builder grantSpin(Duration spin) {
            return set(GRANT_SPIN_US, Long.toString(spin.toNanos() / 1000));
        }

        /** {@code dlock.lock.idle-expiry-ms}; {@link Duration#ZERO} never reclaims. */
        public Builder idleExpiry(Duration expiry) {
            return set(IDLE_EXPIRY_MS, Long.toString(expiry.toMillis()));
        }

        /** {@code dlock.lock.max-live}; 0 bounds by time only. */
        public Builder maxLiveLocks(int locks) {
            return set(MAX_LIVE, Integer.toString(locks));
        }

        /** {@code dlock.metrics.jmx}. */
        public Builder metricsJmx(boolean register) {
            return set(METRICS_JMX, Boolean.toString(register));
        }

        /** {@code dlock.lock.try-timeout-ms}. */
        public Builder tryTimeout(Duration timeout) {
            return set(TRY_TIMEOUT_MS, Long.toString(timeout.toMillis()));
        }

        /**
         * The validated configuration.
         *
         * @throws DlockConfigException for an unknown key or a bad value
         */
        public DlockConfig build() {
            return new DlockConfig(values);
        }
    }
}
