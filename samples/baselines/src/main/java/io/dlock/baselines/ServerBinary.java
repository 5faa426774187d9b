package io.dlock.baselines;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A server program a peer starts ({@code redis-server}, {@code etcd}), looked up on the {@code PATH}, and the Debian
 * package that installs it, for the one-line message of a peer that cannot run.
 *
 * @param command the program's name on the PATH
 * @param debianPackage the Debian package that installs it
 */
record ServerBinary(String command, String debianPackage) {

    /** Redis's server, for Redisson. */
    static final ServerBinary REDIS = new ServerBinary("redis-server", "redis-server");
    /** An etcd member (Debian's etcd-server package installs it as etcd). */
    static final ServerBinary ETCD = new ServerBinary("etcd", "etcd-server");

    /** The command's path: the first executable of that name on the PATH. */
    Optional<Path> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, command);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Empty when the command is on the PATH; else what is missing and how to install it. */
    Optional<String> missing() {
        return find().isPresent() ? Optional.empty()
                : Optional.of(command + " is not on the PATH; install it with: apt-get install " + debianPackage
                        + " (or apt-get install redis-server etcd-server for every peer)");
    }

    /** The command's path, or an exception saying how to install it. */
    Path require() {
        return find().orElseThrow(() -> new IllegalStateException(missing().orElseThrow()));
    }
}
