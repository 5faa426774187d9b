package io.dlock.baselines;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The library versions pinned in {@code samples/baselines/pom.xml}, copied into {@code peer-versions.properties} by
 * the build, so that a row names the version it measured without a second copy of it in the code.
 */
final class PeerVersions {

    private static final Properties VERSIONS = load();

    private PeerVersions() {
    }

    /** The pinned version of {@code library} (jgroups, curator, hazelcast, redisson, jetcd). */
    static String of(String library) {
        String v = VERSIONS.getProperty(library);
        if (v == null || v.startsWith("${")) {
            throw new IllegalStateException("no pinned version of " + library + " in peer-versions.properties: "
                    + "build the jar with mvn -Pbaselines package");
        }
        return v;
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = PeerVersions.class.getResourceAsStream("/peer-versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
