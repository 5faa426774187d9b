package io.dlock.mutex.tokenring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import org.junit.jupiter.api.Test;

/** Rule 6's bookkeeping on its own: the TOKEN_ACK awaited and the members found silent. */
class TokenAckWatchTest {

    private static final NodeId N1 = NodeId.of(1);
    private static final NodeId N2 = NodeId.of(2);

    /** Only the acknowledgement of the last token sent, from its receiver and for its hop, is the one awaited. */
    @Test
    void awaitsTheLastTokenSent() {
        TokenAckWatch w = new TokenAckWatch(250);
        assertEquals(250, w.timeoutMillis());
        assertFalse(w.awaiting());
        assertFalse(w.awaits(N1, 1));
        w.await(N1, 3);
        assertTrue(w.awaiting());
        assertTrue(w.awaits(N1, 3));
        assertFalse(w.awaits(N1, 2), "another hop");
        assertFalse(w.awaits(N2, 3), "another member");
        w.await(N2, 4);
        assertFalse(w.awaits(N1, 3), "replaced by the later token");
        assertEquals(N2, w.stopAwaiting());
        assertFalse(w.awaiting());
        assertNull(w.stopAwaiting(), "nothing awaited any more");
    }

    /** Members found silent stay skipped until the epoch ends. */
    @Test
    void silentMembersUntilTheEpochEnds() {
        TokenAckWatch w = new TokenAckWatch(1);
        assertFalse(w.isSilent(N1));
        w.markSilent(N1);
        w.markSilent(N1);
        assertTrue(w.isSilent(N1));
        assertFalse(w.isSilent(N2));
        w.forgetSilent();
        assertFalse(w.isSilent(N1));
    }
}
