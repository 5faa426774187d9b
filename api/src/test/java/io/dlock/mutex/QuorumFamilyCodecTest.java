package io.dlock.mutex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.MutexAlgorithm;
import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.decentralized.DecentralizedMessage;
import io.dlock.mutex.maekawa.MaekawaMessage;
import io.dlock.mutex.raynal.PrimeRatio;
import io.dlock.mutex.raynal.RaynalMessage;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.MalformedMessageException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Wire formats and configuration of the Maekawa, decentralized and Raynal algorithms. */
class QuorumFamilyCodecTest {

    private static final long BIG = Long.MAX_VALUE;

    @SuppressWarnings("unchecked")
    private static <M extends ProtocolMessage> MessageCodec<M> codec(MutexAlgorithm a) {
        return (MessageCodec<M>) AlgorithmDefinitions.mutex(a).codec();
    }

    private static <M extends ProtocolMessage> void roundTrip(MutexAlgorithm a, List<M> messages) {
        MessageCodec<M> codec = codec(a);
        for (M m : messages) {
            byte[] bytes = codec.toBytes(m);
            assertEquals(m, codec.fromBytes(bytes), a + " " + m);
            for (int cut = 0; cut < bytes.length; cut++) {
                byte[] truncated = Arrays.copyOf(bytes, cut);
                assertThrows(MalformedMessageException.class, () -> codec.fromBytes(truncated), a + " truncated " + m);
            }
            byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
            assertThrows(MalformedMessageException.class, () -> codec.fromBytes(longer), a + " trailing byte " + m);
        }
        assertThrows(MalformedMessageException.class, () -> codec.fromBytes(new byte[] {99, 1, 1, 1}), a + " unknown type");
    }

    /** Every message type of the three algorithms round-trips with small and large values; truncation, trailing bytes and unknown types are refused. */
    @Test
    void roundTripsAndRejections() {
        roundTrip(MutexAlgorithm.MAEKAWA, List.of(new MaekawaMessage.Request(1), new MaekawaMessage.Request(BIG),
                new MaekawaMessage.Locked(BIG, BIG, BIG), new MaekawaMessage.Release(3, 0), new MaekawaMessage.Failed(BIG),
                new MaekawaMessage.Inquire(2, 1), new MaekawaMessage.Relinquish(BIG, BIG),
                new MaekawaMessage.State(0, PeerState.IDLE, 0), new MaekawaMessage.State(BIG, PeerState.HOLDING, BIG)));
        roundTrip(MutexAlgorithm.DECENTRALIZED, List.of(new DecentralizedMessage.Request(1, 1), new DecentralizedMessage.Request(BIG, Integer.MAX_VALUE),
                new DecentralizedMessage.Grant(BIG, BIG), new DecentralizedMessage.Deny(7, false), new DecentralizedMessage.Deny(BIG, true),
                new DecentralizedMessage.Release(BIG, 0), new DecentralizedMessage.State(0, PeerState.WAITING, 3),
                new DecentralizedMessage.State(BIG, PeerState.HOLDING, BIG)));
        PrimeRatio x = PrimeRatio.of(Map.of(0, -BIG, 1000, BIG));
        roundTrip(MutexAlgorithm.RAYNAL, List.of(new RaynalMessage.Request(BIG), new RaynalMessage.Reply(1, PrimeRatio.ONE, 0),
                new RaynalMessage.Reply(BIG, x, BIG), new RaynalMessage.Inform(x, BIG, BIG, BIG, BIG, false), new RaynalMessage.Wake(BIG),
                new RaynalMessage.State(PeerState.HOLDING, BIG)));
    }

    /** A state code other than 0, 1, 2 and a field a record refuses (timestamp 0) are malformed. */
    @Test
    void badFieldsAreMalformed() {
        MessageCodec<MaekawaMessage> maekawa = codec(MutexAlgorithm.MAEKAWA);
        assertThrows(MalformedMessageException.class, () -> maekawa.fromBytes(new byte[] {7, 1, 3, 0}));
        assertThrows(MalformedMessageException.class, () -> maekawa.fromBytes(new byte[] {1, 0}));
        MessageCodec<DecentralizedMessage> dec = codec(MutexAlgorithm.DECENTRALIZED);
        assertThrows(MalformedMessageException.class, () -> dec.fromBytes(new byte[] {5, 0, 2, 0}));
        assertThrows(MalformedMessageException.class, () -> dec.fromBytes(new byte[] {3, 1, 2}), "a reserved flag other than 0, 1");
    }

    /** Numeric options reach the algorithms through the configuration; bad values fail at start naming key and value. */
    @Test
    void numericOptionsThroughTheConfiguration() {
        DlockConfig ok = DlockConfig.builder().mutex(MutexAlgorithm.DECENTRALIZED).mutexOption("quorum", "3")
                .mutexOption("backoff-ms", "25").mutexOption("seed", "7").build();
        assertEquals("3", ok.mutexOptions().get("quorum"));
        DlockConfig.builder().mutex(MutexAlgorithm.RAYNAL).mutexOption("idle-pass-ms", "0").mutexOption("original", "true").build();
        DlockConfig.builder().mutex(MutexAlgorithm.MAEKAWA).mutexOption("basic", "true").build();
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().mutex(MutexAlgorithm.DECENTRALIZED).mutexOption("backoff-ms", "soon").build());
        assertTrue(e.getMessage().contains("backoff-ms") && e.getMessage().contains("soon"), e.getMessage());
        e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().mutex(MutexAlgorithm.RAYNAL).mutexOption("idle-pass-ms", "-1").build());
        assertTrue(e.getMessage().contains("idle-pass-ms=-1"), e.getMessage());
    }
}
