package io.dlock.samples.examples;

import io.dlock.StaleFencingTokenException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * A fenced store in a file, shared by several processes: the file-backed sibling of
 * {@link io.dlock.FencedResource}. It keeps every accepted write as a line {@code token value}, so the
 * last line holds the current value and the highest token accepted, and it refuses a write whose
 * {@link io.dlock.DistributedLock#fencingToken() fencing token} is older than that.
 *
 * <p>The check and the write are one atomic step across processes: each {@link #write} takes an exclusive
 * {@link FileLock} on the file (and, since a JVM may hold only one lock on a file, a lock per path inside
 * the JVM), reads the highest token, appends and forces the line to disk, and only then lets go. That is
 * what a real store does in one transaction; without it, two writers could both pass the check. A write
 * reads only the file's last line (backwards from its end, a block at a time), so its cost does not grow
 * with the history; {@link #history} reads the whole file.
 *
 * <p>A token equal to the highest accepted is accepted (a holder may write several times under one
 * grant). Values are single lines of text.
 */
public final class FencedFile {

    private static final Map<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();
    /** Bytes read at a time while looking for the last line. */
    private static final int BLOCK = 256;

    /** One accepted write. */
    public record Entry(long token, String value) {
    }

    private final Path path;

    /** A store in {@code path}; the file is created on the first write. */
    public FencedFile(Path path) {
        this.path = path.toAbsolutePath().normalize();
    }

    /**
     * Appends {@code value} if {@code fencingToken} is not older than every token accepted so far.
     *
     * @throws StaleFencingTokenException if a newer token was accepted before; the file is unchanged
     * @throws IllegalArgumentException   if the value contains a line break
     * @throws UncheckedIOException       if the file cannot be read or written
     */
    public void write(long fencingToken, String value) {
        update(fencingToken, last -> value);
    }

    /**
     * A fenced read-modify-write in one step: if {@code fencingToken} is not older than every token accepted
     * so far, appends {@code next} applied to the last value ({@code null} when the file is empty) and
     * returns it. The value a holder read earlier may be stale (a holder cut off from the cluster may have
     * written after it, with an older token, before the store saw any newer one); a value computed here from
     * the last accepted one cannot be, which is how a real store's conditional write keeps updates from
     * being lost.
     *
     * @throws StaleFencingTokenException if a newer token was accepted before; the file is unchanged
     * @throws IllegalArgumentException   if the new value contains a line break
     * @throws UncheckedIOException       if the file cannot be read or written
     */
    public String update(long fencingToken, UnaryOperator<String> next) {
        ReentrantLock local = IN_JVM.computeIfAbsent(path, p -> new ReentrantLock());
        local.lock();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
             FileLock ignored = ch.lock()) {
            Entry last = lastEntry(ch);
            if (last != null && fencingToken < last.token()) {
                throw new StaleFencingTokenException(fencingToken, last.token());
            }
            String value = next.apply(last == null ? null : last.value());
            if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("a FencedFile value is one line; got one with a line break: " + value);
            }
            ch.position(ch.size());
            ByteBuffer line = ByteBuffer.wrap((fencingToken + " " + value + "\n").getBytes(StandardCharsets.UTF_8));
            while (line.hasRemaining()) {
                ch.write(line);
            }
            ch.force(true);
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the fenced file " + path, e);
        } finally {
            local.unlock();
        }
    }

    /** Every accepted write, oldest first (empty if nothing was written yet). */
    public List<Entry> history() {
        ReentrantLock local = IN_JVM.computeIfAbsent(path, p -> new ReentrantLock());
        local.lock();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
             FileLock ignored = ch.lock()) {
            return parse(readAll(ch));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the fenced file " + path, e);
        } finally {
            local.unlock();
        }
    }

    /** The last accepted write, if any. */
    public Optional<Entry> last() {
        ReentrantLock local = IN_JVM.computeIfAbsent(path, p -> new ReentrantLock());
        local.lock();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
             FileLock ignored = ch.lock()) {
            return Optional.ofNullable(lastEntry(ch));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the fenced file " + path, e);
        } finally {
            local.unlock();
        }
    }

    /**
     * The last non-empty line of the file as an entry, or null if there is none: read backwards from the end,
     * {@value #BLOCK} bytes at a time, until the line break before it (a line break byte never occurs inside a
     * UTF-8 sequence, so the bytes can be searched before they are decoded).
     */
    private Entry lastEntry(FileChannel ch) throws IOException {
        long lineEnd = -1; // exclusive; -1 while only line breaks were seen
        long lineStart = 0;
        ByteBuffer block = ByteBuffer.allocate(BLOCK);
        search:
        for (long pos = ch.size(); pos > 0; ) {
            int n = (int) Math.min(BLOCK, pos);
            pos -= n;
            readFully(ch, block.clear().limit(n), pos);
            for (int i = n - 1; i >= 0; i--) {
                boolean lineBreak = block.get(i) == '\n';
                if (lineEnd < 0 && !lineBreak) {
                    lineEnd = pos + i + 1;
                } else if (lineEnd >= 0 && lineBreak) {
                    lineStart = pos + i + 1;
                    break search;
                }
            }
        }
        if (lineEnd < 0) {
            return null;
        }
        ByteBuffer line = ByteBuffer.allocate(Math.toIntExact(lineEnd - lineStart));
        readFully(ch, line, lineStart);
        return parseLine(new String(line.array(), StandardCharsets.UTF_8));
    }

    /** Fills {@code buf} from {@code position} on (positional reads: the channel's own position is untouched). */
    private static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        while (buf.hasRemaining()) {
            if (ch.read(buf, position + buf.position()) < 0) {
                throw new IOException("the file ended at " + (position + buf.position()) + " while reading it");
            }
        }
    }

    private static String readAll(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(ch.size()));
        ch.position(0);
        while (buf.hasRemaining() && ch.read(buf) >= 0) {
            // fill
        }
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    }

    private List<Entry> parse(String text) {
        List<Entry> entries = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            entries.add(parseLine(line));
        }
        return entries;
    }

    private Entry parseLine(String line) {
        int space = line.indexOf(' ');
        try {
            return new Entry(Long.parseLong(space < 0 ? line : line.substring(0, space)),
                    space < 0 ? "" : line.substring(space + 1));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(path + " is not a fenced file: line '" + line + "'", e);
        }
    }

    @Override
    public String toString() {
        return "FencedFile[" + path + "]";
    }
}
