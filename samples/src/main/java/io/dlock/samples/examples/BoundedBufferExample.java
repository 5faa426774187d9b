package io.dlock.samples.examples;

import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.jgroups.JGroupsTransportFactory;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The bounded buffer of {@link Condition}'s Javadoc, across nodes: producers wait while it is full,
 * consumers while it is empty, each woken by a signal from whichever node changed the buffer.
 *
 * <p>{@link BoundedBuffer} is "existing code": written for a {@code ReentrantLock} and its conditions, it
 * takes any {@link Lock}; each node builds it with {@code dlock.lock("buffer")} and the lock's two
 * conditions, and the buffer's contents live in a {@link Store} every node reaches (in one JVM an
 * object; across JVMs a file). Nothing in {@code BoundedBuffer} knows about dlock.
 *
 * <p>Run three in-memory nodes (two producers, one consumer) in one JVM:
 * {@code java -cp samples/target/dlock.jar io.dlock.samples.examples.BoundedBufferExample [algorithm]}.
 * Run one node of a JGroups cluster per JVM, sharing a file:
 * {@code ... BoundedBufferExample --jgroups buffer.txt node-id port members produce FIRST COUNT} or
 * {@code ... consume COUNT} (prints {@code READY}, then {@code PUT x} / {@code TOOK x} per item, then
 * {@code DONE}; see {@code BoundedBufferJvmTest}).
 */
public final class BoundedBufferExample {

    /** How many items the buffer holds at most. */
    public static final int CAPACITY = 3;

    private BoundedBufferExample() {
    }

    /** Where the buffer's items live: shared by every node, and read and written only under the lock. */
    public interface Store {
        /** The items, oldest first. */
        List<Integer> read();

        /** Replaces the items. */
        void write(List<Integer> items);
    }

    /** A store in the memory of one JVM (for nodes that run in the same JVM). */
    public static final class MemoryStore implements Store {
        private List<Integer> items = List.of();

        @Override
        public List<Integer> read() {
            return items;
        }

        @Override
        public void write(List<Integer> newItems) {
            items = List.copyOf(newItems);
        }
    }

    /** A store in a file, one comma-separated line (for nodes in different JVMs on one machine). */
    public static final class FileStore implements Store {
        private final Path file;

        /** A store in {@code file}, created empty if missing. */
        public FileStore(Path file) {
            this.file = file;
        }

        @Override
        public List<Integer> read() {
            try {
                String text = Files.exists(file) ? Files.readString(file).trim() : "";
                return text.isEmpty() ? List.of() : Arrays.stream(text.split(",")).map(Integer::valueOf).toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void write(List<Integer> items) {
            try {
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                Files.writeString(tmp, String.join(",", items.stream().map(String::valueOf).toList()));
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Existing code: the bounded buffer of {@code Condition}'s Javadoc, over a {@link Store}. */
    public static final class BoundedBuffer {
        private final Lock lock;
        private final Condition notFull;
        private final Condition notEmpty;
        private final Store store;
        private final int capacity;

        /** A buffer of {@code capacity} items in {@code store}, guarded by {@code lock} and two of its conditions. */
        public BoundedBuffer(Lock lock, Store store, int capacity) {
            this.lock = lock;
            this.notFull = lock.newCondition();   // the same two conditions, made in the same order, on every node
            this.notEmpty = lock.newCondition();
            this.store = store;
            this.capacity = capacity;
        }

        /** Adds {@code item}, waiting while the buffer is full. */
        public void put(int item) throws InterruptedException {
            lock.lock();
            try {
                List<Integer> items = store.read();
                while (items.size() == capacity) {
                    notFull.await();
                    items = store.read();
                }
                List<Integer> more = new ArrayList<>(items);
                more.add(item);
                store.write(more);
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }

        /** Takes the oldest item, waiting while the buffer is empty. */
        public int take() throws InterruptedException {
            lock.lock();
            try {
                List<Integer> items = store.read();
                while (items.isEmpty()) {
                    notEmpty.await();
                    items = store.read();
                }
                if (items.size() > capacity) {
                    throw new IllegalStateException("buffer holds " + items.size() + " items, more than " + capacity);
                }
                store.write(items.subList(1, items.size()));
                notFull.signal();
                return items.get(0);
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Three in-memory nodes: nodes 0 and 1 each put {@code perProducer} items, node 2 takes them all.
     * Returns the items taken, in the order taken.
     *
     * @throws IllegalStateException if an item was lost or taken twice
     */
    public static List<Integer> run(MutexAlgorithm algorithm, int perProducer) throws InterruptedException {
        String cluster = "buffer-" + UUID.randomUUID();
        Store store = new MemoryStore();
        ConcurrentLinkedQueue<Integer> taken = new ConcurrentLinkedQueue<>();
        List<LockService> nodes = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(LockService.start(DlockConfig.builder().mutex(algorithm).cluster(cluster).nodeId(i).build()));
            }
            for (int i = 0; i < 3; i++) {
                BoundedBuffer buffer = new BoundedBuffer(nodes.get(i).lock("buffer"), store, CAPACITY);
                int first = i * 1000;
                threads.add(new Thread(i < 2 ? () -> produce(buffer, first, perProducer)
                        : () -> consume(buffer, 2 * perProducer, taken::add), "node-" + i));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
            }
        } finally {
            nodes.forEach(LockService::close);
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            for (int k = 1; k <= perProducer; k++) {
                expected.add(i * 1000 + k);
            }
        }
        List<Integer> got = new ArrayList<>(taken);
        if (!got.stream().sorted().toList().equals(expected)) {
            throw new IllegalStateException("took " + got + ", expected each of " + expected + " once");
        }
        return got;
    }

    private static void produce(BoundedBuffer buffer, int first, int count) {
        try {
            for (int k = 1; k <= count; k++) {
                buffer.put(first + k);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void consume(BoundedBuffer buffer, int count, java.util.function.IntConsumer sink) {
        try {
            for (int k = 0; k < count; k++) {
                sink.accept(buffer.take());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** In-memory run (default), or one JGroups node with {@code --jgroups} (see the class comment). */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--jgroups")) {
            runJGroupsNode(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        MutexAlgorithm algorithm = args.length > 0 ? MutexAlgorithm.fromConfigName(args[0]) : MutexAlgorithm.RICART_AGRAWALA;
        List<Integer> taken = run(algorithm, 20);
        System.out.printf("%s: 2 producers x 20 items through a buffer of %d on 3 nodes; node 2 took all %d once%n",
                algorithm.configName(), CAPACITY, taken.size());
    }

    /** Arguments: file node-id port members (produce FIRST COUNT | consume COUNT) [algorithm]. */
    private static void runJGroupsNode(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long id = Long.parseLong(args[1]);
        String port = args[2];
        int members = Integer.parseInt(args[3]);
        boolean producer = args[4].equals("produce");
        int first = producer ? Integer.parseInt(args[5]) : 0;
        int count = Integer.parseInt(args[producer ? 6 : 5]);
        String algorithm = args.length > (producer ? 7 : 6) ? args[producer ? 7 : 6] : "ricart-agrawala";
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        DlockConfig config = DlockConfig.builder().transport("jgroups").cluster("bounded-buffer-" + port).nodeId(id)
                .set(DlockConfig.MUTEX, algorithm)
                .set(JGroupsTransportFactory.STACK, "default")
                .set(JGroupsTransportFactory.BIND_ADDR, "127.0.0.1")
                .set(JGroupsTransportFactory.PORT, port)
                .set(JGroupsTransportFactory.PORT_RANGE, "5")
                .build();
        try (LockService service = LockService.start(config)) {
            while (service.view().size() < members) {
                Thread.sleep(20);
            }
            out.println("READY");
            BoundedBuffer buffer = new BoundedBuffer(service.lock("buffer"), new FileStore(file), CAPACITY);
            for (int k = 0; k < count; k++) {
                if (producer) {
                    buffer.put(first + k);
                    out.println("PUT " + (first + k));
                } else {
                    out.println("TOOK " + buffer.take());
                }
            }
            out.println("DONE");
            // stay until the test says so: a node that leaves early changes the others' views
            new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}
