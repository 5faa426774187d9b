package io.dlock.baselines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A temporary directory for a peer's server processes (their logs, etcd's data), deleted with everything in it when
 * the peer's cluster closes.
 */
final class ScratchDirectory implements AutoCloseable {

    private final Path path;

    /** A new empty directory under the system's temporary directory, its name starting with {@code prefix}. */
    ScratchDirectory(String prefix) throws IOException {
        this.path = Files.createTempDirectory(prefix);
    }

    /** The file or directory {@code name} in this directory. */
    Path resolve(String name) {
        return path.resolve(name);
    }

    /** Deletes the directory and everything in it; what cannot be deleted is left. */
    @Override
    public void close() {
        try (Stream<Path> all = Files.walk(path)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // left behind in the temporary directory
        }
    }
}
