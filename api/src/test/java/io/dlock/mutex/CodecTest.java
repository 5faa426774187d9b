package io.dlock.mutex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.mutex.centralized.CentralizedDefinition;
import io.dlock.mutex.centralized.CentralizedMessage;
import io.dlock.mutex.centralized.CentralizedMessage.ClientState;
import io.dlock.mutex.lamport.LamportDefinition;
import io.dlock.mutex.lamport.LamportMessage;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.raymond.RaymondDefinition;
import io.dlock.mutex.raymond.RaymondMessage;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaDefinition;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaMessage;
import io.dlock.mutex.suzukikasami.SuzukiKasamiDefinition;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage;
import io.dlock.mutex.tokenring.TokenRingDefinition;
import io.dlock.mutex.tokenring.TokenRingMessage;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.WireWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Wire formats of the mutual-exclusion algorithms: round trips and rejection of bad bytes. */
class CodecTest {

    private static final MessageCodec<CentralizedMessage> CENTRALIZED = new CentralizedDefinition().codec();
    private static final MessageCodec<RicartAgrawalaMessage> RA = new RicartAgrawalaDefinition().codec();
    private static final MessageCodec<LamportMessage> LAMPORT = new LamportDefinition().codec();
    private static final MessageCodec<TokenRingMessage> TOKEN_RING = new TokenRingDefinition().codec();
    private static final MessageCodec<SuzukiKasamiMessage> SK = new SuzukiKasamiDefinition().codec();
    private static final MessageCodec<RaymondMessage> RAYMOND = new RaymondDefinition().codec();

    /** One sample of every message type of every algorithm, with small and large field values. */
    static Stream<Arguments> samples() {
        long big = Long.MAX_VALUE;
        return Stream.of(
                Arguments.of(CENTRALIZED, new CentralizedMessage.Request(1)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Request(big)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Grant(7, 300)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Grant(big, big)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Denied(128)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Release(3)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Sync(0, ClientState.IDLE, 0)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Sync(5, ClientState.IDLE, 9)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Sync(6, ClientState.WAITING, 9)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.Sync(big, ClientState.HOLDING, big)),
                Arguments.of(CENTRALIZED, new CentralizedMessage.SyncQuery()),
                Arguments.of(RA, new RicartAgrawalaMessage.Request(1)),
                Arguments.of(RA, new RicartAgrawalaMessage.Request(big)),
                Arguments.of(RA, new RicartAgrawalaMessage.Reply(42, 0)),
                Arguments.of(RA, new RicartAgrawalaMessage.Reply(big, big)),
                Arguments.of(LAMPORT, new LamportMessage.Request(1)),
                Arguments.of(LAMPORT, new LamportMessage.Request(big)),
                Arguments.of(LAMPORT, new LamportMessage.Ack(3, 4, 0)),
                Arguments.of(LAMPORT, new LamportMessage.Ack(big, big, big)),
                Arguments.of(LAMPORT, new LamportMessage.Release(3, 9, 2)),
                Arguments.of(LAMPORT, new LamportMessage.Release(big, big, big)),
                // token algorithms and their census messages
                Arguments.of(TOKEN_RING, new TokenRingMessage.Token(1, 1, 0, 0)),
                Arguments.of(TOKEN_RING, new TokenRingMessage.Token(big, big, big, big)),
                Arguments.of(TOKEN_RING, new TokenRingMessage.Parked(big, big)),
                Arguments.of(TOKEN_RING, new TokenRingMessage.Wake(big)),
                Arguments.of(TOKEN_RING, new TokenRingMessage.TokenAck(1, 1)),
                Arguments.of(TOKEN_RING, new TokenRingMessage.TokenAck(big, big)),
                Arguments.of(TOKEN_RING, new TokenRingMessage.Census(new CensusMessage.Hello(3))),
                Arguments.of(TOKEN_RING, new TokenRingMessage.Census(new CensusMessage.Query(big))),
                Arguments.of(TOKEN_RING, new TokenRingMessage.Census(new CensusMessage.Report(
                        new CensusReport(2, true, true, 9, 10, 0, false)))),
                Arguments.of(TOKEN_RING, new TokenRingMessage.Census(
                        new CensusMessage.Done(new CensusOutcome(2, NodeId.of(big), true, big)))),
                Arguments.of(SK, new SuzukiKasamiMessage.Request(1)),
                Arguments.of(SK, new SuzukiKasamiMessage.Request(big)),
                Arguments.of(SK, new SuzukiKasamiMessage.Token(0, 1, 0, Map.of(), List.of())),
                Arguments.of(SK, new SuzukiKasamiMessage.Token(big, big, big,
                        Map.of(NodeId.of(0), 0L, NodeId.of(7), big), List.of(NodeId.of(big), NodeId.of(3)))),
                Arguments.of(SK, new SuzukiKasamiMessage.Census(new CensusMessage.Report(
                        new CensusReport(big, false, false, 0, big, big, true)))),
                Arguments.of(SK, new SuzukiKasamiMessage.Census(
                        new CensusMessage.Done(new CensusOutcome(0, NodeId.of(0), false, 0)))),
                Arguments.of(RAYMOND, new RaymondMessage.Request(1)),
                Arguments.of(RAYMOND, new RaymondMessage.Request(big)),
                Arguments.of(RAYMOND, new RaymondMessage.Privilege(1, 1, 0)),
                Arguments.of(RAYMOND, new RaymondMessage.Privilege(big, big, big)),
                Arguments.of(RAYMOND, new RaymondMessage.Census(new CensusMessage.Hello(0))),
                Arguments.of(RAYMOND, new RaymondMessage.Census(new CensusMessage.Query(1))));
    }

    /** Decoding an encoded message gives an equal message, and re-encoding gives the same bytes. */
    @ParameterizedTest
    @MethodSource("samples")
    <M extends ProtocolMessage> void roundTrip(MessageCodec<M> codec, M message) {
        byte[] bytes = codec.toBytes(message);
        M decoded = codec.fromBytes(bytes);
        assertEquals(message, decoded);
        assertArrayEquals(bytes, codec.toBytes(decoded));
    }

    /** Every strict prefix of an encoded message (including the empty one) is malformed. */
    @ParameterizedTest
    @MethodSource("samples")
    <M extends ProtocolMessage> void truncatedPrefixIsMalformed(MessageCodec<M> codec, M message) {
        byte[] bytes = codec.toBytes(message);
        for (int length = 0; length < bytes.length; length++) {
            byte[] prefix = Arrays.copyOf(bytes, length);
            assertThrows(MalformedMessageException.class, () -> codec.fromBytes(prefix),
                    "prefix of " + length + " bytes of " + message);
        }
    }

    /** A byte after a complete message is rejected. */
    @ParameterizedTest
    @MethodSource("samples")
    <M extends ProtocolMessage> void trailingBytesAreMalformed(MessageCodec<M> codec, M message) {
        byte[] bytes = codec.toBytes(message);
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(MalformedMessageException.class, () -> codec.fromBytes(longer));
    }

    /** An unknown type byte is malformed, and the exception names it. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void unknownTypeIsMalformed(MutexAlgorithm algorithm) {
        MessageCodec<?> codec = AlgorithmDefinitions.mutex(algorithm).codec();
        for (int tag : List.of(0, 99, 200, 255)) {
            byte[] bytes = {(byte) tag, 1, 1, 1, 1};
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> codec.fromBytes(bytes));
            assertTrue(e.getMessage().contains(String.valueOf(tag)), e.getMessage());
        }
    }

    /** Fields out of their range (a zero timestamp or request id, a zero grant token) are malformed. */
    @Test
    void outOfRangeFieldsAreMalformed() {
        assertMalformed(CENTRALIZED, new WireWriter().writeByte(1).writeVarLong(0));
        assertMalformed(CENTRALIZED, new WireWriter().writeByte(2).writeVarLong(1).writeVarLong(0));
        assertMalformed(CENTRALIZED, new WireWriter().writeByte(4).writeVarLong(0));
        assertMalformed(RA, new WireWriter().writeByte(1).writeVarLong(0));
        assertMalformed(RA, new WireWriter().writeByte(2).writeVarLong(0).writeVarLong(5));
        assertMalformed(LAMPORT, new WireWriter().writeByte(1).writeVarLong(0));
        assertMalformed(LAMPORT, new WireWriter().writeByte(2).writeVarLong(1).writeVarLong(0).writeVarLong(0));
        assertMalformed(LAMPORT, new WireWriter().writeByte(3).writeVarLong(0).writeVarLong(1).writeVarLong(0));
    }

    /** Token-algorithm fields out of range (hop 0, request 0, a member listed twice) are malformed. */
    @Test
    void tokenFieldsOutOfRangeAreMalformed() {
        assertMalformed(TOKEN_RING, new WireWriter().writeByte(1).writeVarLong(1).writeVarLong(0).writeVarLong(0));
        assertMalformed(RAYMOND, new WireWriter().writeByte(1).writeVarLong(1).writeVarLong(0).writeVarLong(0));
        assertMalformed(RAYMOND, new WireWriter().writeByte(2).writeVarLong(0));
        assertMalformed(SK, new WireWriter().writeByte(1).writeVarLong(0));
        assertMalformed(SK, new WireWriter().writeByte(2).writeVarLong(1).writeVarLong(0).writeVarLong(0)
                .writeVarLong(0).writeVarLong(0));
        assertMalformed(SK, new WireWriter().writeByte(2).writeVarLong(1).writeVarLong(1).writeVarLong(0)
                .writeVarLong(2).writeVarLong(4).writeVarLong(1).writeVarLong(4).writeVarLong(2).writeVarLong(0));
        assertMalformed(SK, new WireWriter().writeByte(2).writeVarLong(1).writeVarLong(1).writeVarLong(0)
                .writeVarLong(0).writeVarLong(2).writeVarLong(5).writeVarLong(5));
    }

    /** A SYNC with an unknown client state, or waiting or holding without a request, is malformed. */
    @Test
    void inconsistentSyncIsMalformed() {
        assertMalformed(CENTRALIZED, new WireWriter().writeByte(5).writeVarLong(1).writeByte(3).writeVarLong(0));
        assertMalformed(CENTRALIZED, new WireWriter().writeByte(5).writeVarLong(0).writeByte(1).writeVarLong(0));
        assertMalformed(CENTRALIZED, new WireWriter().writeByte(5).writeVarLong(0).writeByte(2).writeVarLong(0));
    }

    /** A varint longer than 64 bits (garbage) is malformed, not an overflowed or negative value. */
    @Test
    void overlongVarintIsMalformed() {
        byte[] garbage = new byte[12];
        Arrays.fill(garbage, (byte) 0xFF);
        garbage[0] = 1; // REQUEST, in every codec
        for (MutexAlgorithm algorithm : MutexAlgorithm.values()) {
            assertThrows(MalformedMessageException.class, () -> AlgorithmDefinitions.mutex(algorithm).codec().fromBytes(garbage),
                    algorithm.configName());
        }
    }

    private static void assertMalformed(MessageCodec<?> codec, WireWriter bytes) {
        byte[] array = bytes.toByteArray();
        assertThrows(MalformedMessageException.class, () -> codec.fromBytes(array));
    }
}
