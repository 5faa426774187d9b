package io.dlock.samples;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code dlock --version} prints: {@code dlock <version>}, the version of the build that made this jar. Maven
 * writes it into the resource {@value #RESOURCE} (a filtered resource: {@code version=${project.version}}), so it
 * changes with the pom and is never written in the code.
 */
final class BuildVersion implements IVersionProvider {

    /** The filtered resource, next to this class. */
    static final String RESOURCE = "build-version.properties";

    /** The version of this build, as the pom says it ({@code 0.1.0-SNAPSHOT}). */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no " + RESOURCE + " next to " + BuildVersion.class.getName()
                        + ": build the jar with Maven, which writes it");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        String v = p.getProperty("version", "");
        if (v.isEmpty() || v.startsWith("${")) {
            throw new IllegalStateException(RESOURCE + " holds no version (version=" + v
                    + "); allowed: the pom's project.version, written by Maven's resource filtering");
        }
        return v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"dlock " + version()};
    }
}
