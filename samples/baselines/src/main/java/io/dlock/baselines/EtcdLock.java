package io.dlock.baselines;

import io.dlock.bench.NodeLock;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lock.LockResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One node's handles on etcd's lock service (v3lock, through jetcd): {@link #lock(String)} is the node's handle on
 * one name. An etcd lock belongs to a lease, not to a thread: two holders with the same lease would share the lock
 * key and both believe they hold it. So each thread of the node takes the lock under a lease of its own (granted at
 * its first lock, kept alive until the node closes), and remembers the key it got, which the unlock deletes.
 */
final class EtcdLock implements AutoCloseable {

    /** The leases' time to live; jetcd keeps them alive while the node runs. */
    static final long LEASE_TTL_SECONDS = 30;

    private static final StreamObserver<LeaseKeepAliveResponse> IGNORE = new StreamObserver<>() {
        @Override
        public void onNext(LeaseKeepAliveResponse value) {
        }

        @Override
        public void onError(Throwable t) {
        }

        @Override
        public void onCompleted() {
        }
    };

    private final Client client;
    private final List<CloseableClient> keepAlives = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Long> lease = new ThreadLocal<>();

    /** The handles of the node whose client is {@code client}. */
    EtcdLock(Client client) {
        this.client = client;
    }

    /** This node's handle on the lock {@code name}, usable by all its threads. */
    NodeLock lock(String name) {
        ByteSequence key = ByteSequence.from(name, StandardCharsets.UTF_8);
        ThreadLocal<ByteSequence> held = new ThreadLocal<>();
        return new NodeLock() {
            @Override
            public boolean tryLock(long seconds) throws Exception {
                CompletableFuture<LockResponse> f = client.getLockClient().lock(key, leaseOfThisThread());
                try {
                    held.set(f.get(seconds, TimeUnit.SECONDS).getKey());
                    return true;
                } catch (TimeoutException e) {
                    f.cancel(true);
                    return false;
                }
            }

            @Override
            public void unlock() throws Exception {
                ByteSequence owned = held.get();
                if (owned == null) {
                    throw new IllegalStateException("etcd lock " + name + " is not held by " + Thread.currentThread());
                }
                held.remove();
                client.getLockClient().unlock(owned).get(30, TimeUnit.SECONDS);
            }
        };
    }

    private long leaseOfThisThread() throws InterruptedException, ExecutionException, TimeoutException {
        Long id = lease.get();
        if (id == null) {
            id = client.getLeaseClient().grant(LEASE_TTL_SECONDS).get(30, TimeUnit.SECONDS).getID();
            keepAlives.add(client.getLeaseClient().keepAlive(id, IGNORE));
            lease.set(id);
        }
        return id;
    }

    /** Stops keeping the leases alive and closes the client (the leases expire with the cluster). */
    @Override
    public void close() {
        keepAlives.forEach(CloseableClient::close);
        client.close();
    }
}
