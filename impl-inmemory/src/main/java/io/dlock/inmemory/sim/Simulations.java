package io.dlock.inmemory.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;

/**
 * Runs one simulation configuration over many seeds and finds the first that fails.
 *
 * <p>Each seed's run is single-threaded and deterministic ({@link Simulation#run()}); the runs of different seeds
 * are independent, so a sweep runs them on up to {@link #threads()} threads at once. Their results are judged on the
 * calling thread in increasing seed order, so the sweep's results, and the first failure reported (the smallest
 * failing seed of the range), are those of a run of one seed after the other; replay a failure with
 * {@code template.seed(failingSeed).run()} or the replay line of its result.
 */
public final class Simulations {

    /**
     * The system property that sets how many seeds a sweep runs at once: a positive integer; default the number of
     * processors, 1 runs the seeds one after the other on the calling thread.
     */
    public static final String THREADS_PROPERTY = "dlock.sim.threads";

    private Simulations() {
    }

    /**
     * How many seeds a sweep runs at once: {@value #THREADS_PROPERTY} if set, else the number of processors.
     *
     * @throws IllegalArgumentException if the property is set to anything but a positive integer
     */
    public static int threads() {
        String value = System.getProperty(THREADS_PROPERTY);
        if (value == null || value.isBlank()) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            int threads = Integer.parseInt(value.trim());
            if (threads >= 1) {
                return threads;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(THREADS_PROPERTY + " must be a positive integer, got '" + value + "'");
    }

    /**
     * Runs {@code template} with seeds {@code fromSeed .. fromSeed + count - 1} and stops at the first
     * whose result is not {@link SimulationResult#ok()}.
     *
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public static SeedSweep runSeeds(Simulation template, long fromSeed, int count) {
        return runSeeds(template, fromSeed, count, RunCheck.OK);
    }

    /**
     * Runs {@code template} with seeds {@code fromSeed .. fromSeed + count - 1} and stops at the first
     * for which {@code check} reports a problem.
     *
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public static SeedSweep runSeeds(Simulation template, long fromSeed, int count, RunCheck check) {
        return runSeeds(template, fromSeed, count, check, threads());
    }

    /** {@link #runSeeds(Simulation, long, int, RunCheck)} on {@code threads} threads (1: on the calling thread). */
    static SeedSweep runSeeds(Simulation template, long fromSeed, int count, RunCheck check, int threads) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(check, "check");
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        if (Math.min(threads, count) <= 1) {
            List<SimulationResult> results = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                SimulationResult result = template.seed(fromSeed + i).run();
                results.add(result);
                String problem = check.problem(result);
                if (problem != null) {
                    return new SeedSweep(fromSeed, count, results, result, problem);
                }
            }
            return new SeedSweep(fromSeed, count, results, null, null);
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, count), SEED_THREADS);
        try {
            List<Future<SimulationResult>> runs = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Simulation seeded = template.seed(fromSeed + i);
                Callable<SimulationResult> run = seeded::run;
                runs.add(pool.submit(run));
            }
            List<SimulationResult> results = new ArrayList<>(count);
            for (Future<SimulationResult> run : runs) {
                SimulationResult result = resultOf(run);
                results.add(result);
                String problem = check.problem(result);
                if (problem != null) {
                    return new SeedSweep(fromSeed, count, results, result, problem);
                }
            }
            return new SeedSweep(fromSeed, count, results, null, null);
        } finally {
            pool.shutdownNow(); // the seeds after a failure are not needed
        }
    }

    /** The sweep's worker threads: daemons, so that an abandoned sweep never keeps a JVM alive. */
    private static final ThreadFactory SEED_THREADS = task -> {
        Thread t = new Thread(task, "dlock-sim-seed");
        t.setDaemon(true);
        return t;
    };

    /** The run's result; what the run threw is thrown here, as {@link Simulation#run()} would have thrown it. */
    private static SimulationResult resultOf(Future<SimulationResult> run) {
        try {
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a seed's run", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Searches seeds {@code fromSeed .. fromSeed + count - 1} for the first run that {@code check}
     * rejects, for tests that must show a failure exists (such as an algorithm run without the
     * channel guarantee it needs). Returns {@code null} if every seed passed.
     */
    public static SimulationResult findFailingSeed(Simulation template, long fromSeed, int count, RunCheck check) {
        return runSeeds(template, fromSeed, count, check).failure();
    }

    /** Runs {@code template} once more with {@code seed}: the same result as the original run. */
    public static SimulationResult replay(Simulation template, long seed) {
        return template.seed(seed).run();
    }
}
