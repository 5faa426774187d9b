package io.dlock.metrics;

import io.dlock.DistributedLock;
import io.dlock.LockMetrics;
import io.dlock.LockService;
import io.dlock.NodeMetrics;
import io.dlock.TimeDistribution;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Binds a node's metrics and those of the named locks to a Micrometer {@link MeterRegistry}. The only
 * class of dlock that uses Micrometer, which dlock-api declares as an optional dependency: an
 * application without Micrometer never loads it. Nothing is recorded through Micrometer on the lock's
 * hot path: every meter is a function meter that reads {@link DistributedLock#metrics()} or
 * {@link LockService#nodeMetrics()} when the registry publishes.
 *
 * <pre>{@code
 * new DlockMeterBinder(service, List.of("orders", "jobs")).bindTo(registry);
 * }</pre>
 *
 * <p>Every meter has the tags {@code cluster} and {@code node}; those of a lock also {@code lock}.
 * <ul>
 *   <li>{@code dlock.lock.acquire.wait}, {@code dlock.lock.hold}: function timers (count and total time),
 *       each with a {@code .max} time gauge and a {@code .percentile} time gauge per {@code phi} tag
 *       (0.5, 0.99), from the runtime's fixed buckets;</li>
 *   <li>{@code dlock.lock.waiting.threads}, {@code dlock.lock.epoch.grants}: gauges;</li>
 *   <li>{@code dlock.lock.entries}, {@code dlock.lock.messages.sent}, {@code dlock.lock.frames.sent},
 *       {@code dlock.lock.bytes.sent},
 *       {@code dlock.lock.messages.received}, {@code dlock.lock.messages.malformed},
 *       {@code dlock.lock.messages.stale}, {@code dlock.lock.local.handoffs}: function counters;</li>
 *   <li>{@code dlock.node.view.changes}: a function counter; {@code dlock.node.nonprimary.time}: a
 *       function counter in seconds; {@code dlock.node.primary} (1 or 0), {@code dlock.node.epoch}:
 *       gauges.</li>
 * </ul>
 */
public final class DlockMeterBinder implements MeterBinder {

    private static final double[] PERCENTILES = {0.5, 0.99};

    private final LockService service;
    private final List<String> lockNames;

    /**
     * @param service   the node whose metrics are bound
     * @param lockNames the locks bound individually ({@link LockService#lock} is called for each)
     */
    public DlockMeterBinder(LockService service, List<String> lockNames) {
        this.service = service;
        this.lockNames = List.copyOf(lockNames);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Tags node = Tags.of("cluster", service.config().cluster(), "node", service.nodeId().toString());
        counter(registry, "dlock.node.view.changes", node, service, s -> s.nodeMetrics().viewChanges(), "views");
        FunctionCounter.builder("dlock.node.nonprimary.time", service,
                        s -> s.nodeMetrics().nonPrimaryNanos() / 1e9)
                .tags(node).baseUnit("seconds").description("time spent in views that are not primary")
                .register(registry);
        Gauge.builder("dlock.node.primary", service, s -> s.nodeMetrics().primary() ? 1 : 0).tags(node)
                .register(registry);
        Gauge.builder("dlock.node.epoch", service, s -> s.nodeMetrics().epoch()).tags(node).register(registry);
        for (String name : lockNames) {
            bindLock(registry, service.lock(name), node.and("lock", name));
        }
    }

    private static void bindLock(MeterRegistry registry, DistributedLock lock, Tags tags) {
        timer(registry, "dlock.lock.acquire.wait", tags, lock, LockMetrics::acquireWait);
        timer(registry, "dlock.lock.hold", tags, lock, LockMetrics::hold);
        gauge(registry, "dlock.lock.waiting.threads", tags, lock, LockMetrics::waitingThreads);
        gauge(registry, "dlock.lock.epoch.grants", tags, lock, LockMetrics::epochGrants);
        lockCounter(registry, "dlock.lock.entries", tags, lock, LockMetrics::entries, "entries");
        lockCounter(registry, "dlock.lock.messages.sent", tags, lock, LockMetrics::messagesSent, "messages");
        lockCounter(registry, "dlock.lock.frames.sent", tags, lock, LockMetrics::framesSent, "frames");
        lockCounter(registry, "dlock.lock.bytes.sent", tags, lock, LockMetrics::bytesSent, "bytes");
        lockCounter(registry, "dlock.lock.messages.received", tags, lock, LockMetrics::messagesReceived, "messages");
        lockCounter(registry, "dlock.lock.messages.malformed", tags, lock, LockMetrics::malformedDropped, "messages");
        lockCounter(registry, "dlock.lock.messages.stale", tags, lock, LockMetrics::staleDropped, "messages");
        lockCounter(registry, "dlock.lock.local.handoffs", tags, lock, LockMetrics::localHandoffs, "entries");
    }

    private static void timer(MeterRegistry registry, String name, Tags tags, DistributedLock lock,
                              Function<LockMetrics, TimeDistribution> times) {
        FunctionTimer.builder(name, lock, l -> times.apply(l.metrics()).count(),
                        l -> times.apply(l.metrics()).totalNanos(), TimeUnit.NANOSECONDS)
                .tags(tags).register(registry);
        TimeGauge.builder(name + ".max", lock, TimeUnit.NANOSECONDS, l -> times.apply(l.metrics()).maxNanos())
                .tags(tags).register(registry);
        for (double phi : PERCENTILES) {
            TimeGauge.builder(name + ".percentile", lock, TimeUnit.NANOSECONDS,
                            l -> times.apply(l.metrics()).percentileNanos(phi))
                    .tags(tags.and("phi", Double.toString(phi))).register(registry);
        }
    }

    private static void gauge(MeterRegistry registry, String name, Tags tags, DistributedLock lock,
                              ToLongFunction<LockMetrics> value) {
        Gauge.builder(name, lock, l -> value.applyAsLong(l.metrics())).tags(tags).register(registry);
    }

    private static void lockCounter(MeterRegistry registry, String name, Tags tags, DistributedLock lock,
                                    ToLongFunction<LockMetrics> value, String unit) {
        counter(registry, name, tags, lock, l -> value.applyAsLong(l.metrics()), unit);
    }

    private static <T> void counter(MeterRegistry registry, String name, Tags tags, T source, ToDoubleFunction<T> value,
                                    String unit) {
        FunctionCounter.builder(name, source, value).tags(tags).baseUnit(unit).register(registry);
    }
}
