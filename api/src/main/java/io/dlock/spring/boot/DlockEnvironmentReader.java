package io.dlock.spring.boot;

import io.dlock.DlockConfig;
import io.dlock.ElectionAlgorithm;
import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.spi.TransportFactory;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Reads the {@code dlock.*} settings of a Spring {@link Environment} (application.properties, YAML, environment
 * variables, system properties, command-line arguments: every property source, with Spring's precedence) into the
 * {@link Properties} that {@link DlockConfig#fromProperties} validates, under the same keys as a
 * {@code dlock.properties} file.
 *
 * <p>Keys keep the form they were written in, so {@code dlock.lock.try-timeout-ms=500} arrives as it is. An
 * environment variable cannot write a dash: {@code DLOCK_LOCK_TRYTIMEOUTMS} and {@code DLOCK_LOCK_TRY_TIMEOUT_MS}
 * reach Spring as {@code dlock.lock.trytimeoutms} and {@code dlock.lock.try.timeout.ms}. A key that is not one of
 * dlock's own is therefore matched against every key dlock knows (its own, every algorithm's options, every
 * transport's settings on the class path) ignoring case, dots, dashes and underscores, and renamed to the one it
 * matches; a key that matches none is passed on as it is, and {@code DlockConfig} rejects it with the list of
 * allowed keys.
 *
 * <p>The keys of the Spring integration itself ({@link DlockAutoConfiguration#METRICS_LOCK_NAMES}) are not
 * dlock's and are left out.
 */
final class DlockEnvironmentReader {

    private static final String PREFIX = "dlock";

    private DlockEnvironmentReader() {
    }

    /** The {@code dlock.*} settings of {@code environment}, under dlock's keys, without the Spring-only ones. */
    static Properties read(Environment environment) {
        Map<String, String> bound = Binder.get(environment)
                .bind(PREFIX, Bindable.mapOf(String.class, String.class))
                .orElse(Map.of());
        Map<String, String> known = knownKeysByUniformName();
        Properties properties = new Properties();
        String springOnly = uniform(DlockAutoConfiguration.METRICS_LOCK_NAMES);
        bound.forEach((suffix, value) -> {
            String key = PREFIX + "." + suffix;
            String uniform = uniform(key);
            if (!uniform.startsWith(springOnly)) {
                properties.setProperty(known.getOrDefault(uniform, key), value);
            }
        });
        return properties;
    }

    /** The lock names bound to Micrometer, from {@link DlockAutoConfiguration#METRICS_LOCK_NAMES}; empty if unset. */
    static List<String> meteredLockNames(Environment environment) {
        return Binder.get(environment)
                .bind(DlockAutoConfiguration.METRICS_LOCK_NAMES, Bindable.listOf(String.class))
                .orElse(List.of());
    }

    /** Every key dlock knows, by its {@link #uniform} form; a uniform form two keys share maps to neither. */
    private static Map<String, String> knownKeysByUniformName() {
        Map<String, String> byUniform = new HashMap<>();
        Set<String> ambiguous = new HashSet<>();
        DlockConfig.keys().forEach(k -> add(byUniform, ambiguous, k));
        for (MutexAlgorithm m : MutexAlgorithm.values()) {
            AlgorithmDefinitions.mutex(m).optionKeys().forEach(o -> add(byUniform, ambiguous, DlockConfig.MUTEX + "." + o));
        }
        for (ElectionAlgorithm e : ElectionAlgorithm.values()) {
            AlgorithmDefinitions.election(e).ifPresent(d ->
                    d.optionKeys().forEach(o -> add(byUniform, ambiguous, DlockConfig.ELECTION + "." + o)));
        }
        for (TransportFactory t : ServiceLoader.load(TransportFactory.class, DlockConfig.class.getClassLoader())) {
            t.settingKeys().forEach(s -> add(byUniform, ambiguous, PREFIX + "." + t.name() + "." + s));
        }
        ambiguous.forEach(byUniform::remove);
        return byUniform;
    }

    private static void add(Map<String, String> byUniform, Set<String> ambiguous, String key) {
        String previous = byUniform.putIfAbsent(uniform(key), key);
        if (previous != null && !previous.equals(key)) {
            ambiguous.add(uniform(key));
        }
    }

    /** {@code key} in lower case without dots, dashes and underscores: the form relaxed binding cannot tell apart. */
    private static String uniform(String key) {
        return key.toLowerCase(Locale.ROOT).replaceAll("[-._\\[\\]]", "");
    }
}
