package io.dlock.inmemory.spring;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;

/** A {@link Candidate} that counts its grants and revocations and keeps the last context. Test fixture. */
final class RecordingCandidate implements Candidate {

    final AtomicInteger granted = new AtomicInteger();
    final AtomicInteger revoked = new AtomicInteger();
    volatile Context context;
    private final String id;

    RecordingCandidate(String id) {
        this.id = id;
    }

    /** Whether it was granted more often than revoked: it leads now. */
    boolean leads() {
        return granted.get() > revoked.get();
    }

    @Override
    public String getRole() {
        return "reports";
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public void onGranted(Context ctx) {
        context = ctx;
        granted.incrementAndGet();
    }

    @Override
    public void onRevoked(Context ctx) {
        context = ctx;
        revoked.incrementAndGet();
    }
}
