package io.dlock.runtime;

/**
 * What a lock's local state asks the node's epoch lease ({@link LeaseKeeper}) before a local thread takes a
 * grant and before a holder's unlock or token read succeeds. Implementations are thread-safe and never block.
 */
interface LeaseCheck {

    /** For a node without leases (unit tests of the local state): always current. */
    LeaseCheck ALWAYS = new LeaseCheck() {
        @Override
        public boolean mayGrant() {
            return true;
        }

        @Override
        public boolean holdValid() {
            return true;
        }

        @Override
        public void whenGrantable(Runnable action) {
            action.run();
        }
    };

    /** Whether a grant may pass to a local thread now (a hand-off, a token entered again included). */
    boolean mayGrant();

    /** Whether a hold taken here is still known to be exclusive now. */
    boolean holdValid();

    /** Runs {@code action} once {@link #mayGrant()} holds: at once on this thread if it holds now. */
    void whenGrantable(Runnable action);
}
