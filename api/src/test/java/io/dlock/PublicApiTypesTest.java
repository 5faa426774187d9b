package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.protocol.AlgorithmDefinitions;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The application API ({@code io.dlock}) speaks the user's language: what its public methods return is an API
 * type or a JDK type, never a transport's ({@code io.dlock.spi}) or an algorithm author's
 * ({@code io.dlock.protocol}) type; not even the node id, which is the API's {@link io.dlock.NodeId} that transports
 * use too. Transports are still passed in ({@code LockService.start(config,
 * transport)}): only what the API hands out is checked.
 */
class PublicApiTypesTest {

    private static final List<String> INTERNAL_PACKAGES = List.of("io.dlock.spi.", "io.dlock.protocol.");

    /** No public method of a public io.dlock type returns an SPI or protocol type, also as a type argument. */
    @Test
    void apiReturnsNoSpiOrProtocolType() throws Exception {
        List<String> leaks = new ArrayList<>();
        List<Class<?>> types = apiTypes();
        assertTrue(types.contains(LockService.class) && types.contains(DlockConfig.class), types.toString());
        for (Class<?> type : types) {
            for (Method m : type.getMethods()) {
                if (m.getDeclaringClass().getName().startsWith("io.dlock.") && leaks(m.getGenericReturnType())) {
                    leaks.add(type.getName() + "." + m.getName() + " returns " + m.getGenericReturnType().getTypeName());
                }
            }
        }
        assertEquals(List.of(), leaks);
    }

    /** Every algorithm an application can name has the definition the runtime and the simulator look up. */
    @Test
    void everyNamedAlgorithmHasItsDefinition() {
        for (MutexAlgorithm a : MutexAlgorithm.values()) {
            assertEquals(a.configName(), AlgorithmDefinitions.mutex(a).name());
        }
        for (ElectionAlgorithm a : ElectionAlgorithm.values()) {
            assertEquals(a != ElectionAlgorithm.VIEW, AlgorithmDefinitions.election(a).isPresent(), a.toString());
            AlgorithmDefinitions.election(a).ifPresent(d -> assertEquals(a.configName(), d.name()));
        }
        assertEquals(ElectionAlgorithm.values().length - 1, ElectionAlgorithm.messagePassing().size());
    }

    private static boolean leaks(Type type) {
        if (type instanceof Class<?> c) {
            Class<?> element = c.isArray() ? c.getComponentType() : c;
            return INTERNAL_PACKAGES.stream().anyMatch(p -> element.getName().startsWith(p));
        }
        if (type instanceof ParameterizedType p) {
            return leaks(p.getRawType()) || Stream.of(p.getActualTypeArguments()).anyMatch(PublicApiTypesTest::leaks);
        }
        if (type instanceof WildcardType w) {
            return Stream.concat(Stream.of(w.getUpperBounds()), Stream.of(w.getLowerBounds()))
                    .anyMatch(PublicApiTypesTest::leaks);
        }
        return false;
    }

    /** The public types of package io.dlock (nested ones included), from the compiled classes. */
    private static List<Class<?>> apiTypes() throws IOException, ClassNotFoundException {
        Path dir = Path.of("target/classes/io/dlock");
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String simple = f.getFileName().toString().replace(".class", "");
                if (simple.equals("package-info") || simple.matches(".*\\$[0-9].*")) {
                    continue;
                }
                Class<?> c = Class.forName("io.dlock." + simple);
                if (Modifier.isPublic(c.getModifiers())) {
                    types.add(c);
                }
            }
        }
        return types;
    }
}
