package io.dlock.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dlock.ElectionAlgorithm;
import io.dlock.election.bully.BullyDefinition;
import io.dlock.election.bully.BullyMessage;
import io.dlock.election.changroberts.ChangRobertsDefinition;
import io.dlock.election.changroberts.ChangRobertsMessage;
import io.dlock.election.franklin.FranklinDefinition;
import io.dlock.election.franklin.FranklinMessage;
import io.dlock.election.lelann.LeLannDefinition;
import io.dlock.election.lelann.LeLannMessage;
import io.dlock.election.peterson.PetersonDefinition;
import io.dlock.election.peterson.PetersonMessage;
import io.dlock.election.ring.RingDefinition;
import io.dlock.election.ring.RingMessage;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Wire formats of the election algorithms: round trips and rejection of bad bytes. */
class ElectionCodecTest {

    private static final NodeId BIG = NodeId.of(Long.MAX_VALUE);
    private static final NodeId ONE = NodeId.of(1);

    /** One sample of every message type of every election algorithm, with small and large ids. */
    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of(new BullyDefinition().codec(), new BullyMessage.Election()),
                Arguments.of(new BullyDefinition().codec(), new BullyMessage.Ok()),
                Arguments.of(new BullyDefinition().codec(), new BullyMessage.Coordinator(BIG)),
                Arguments.of(new RingDefinition().codec(), new RingMessage.Election(1, ONE, List.of(ONE, BIG))),
                Arguments.of(new RingDefinition().codec(), new RingMessage.Coordinator(Long.MAX_VALUE, BIG, List.of(BIG))),
                Arguments.of(new RingDefinition().codec(), new RingMessage.Ack(7)),
                Arguments.of(new LeLannDefinition().codec(), new LeLannMessage.Id(BIG)),
                Arguments.of(new ChangRobertsDefinition().codec(), new ChangRobertsMessage.Election(ONE)),
                Arguments.of(new ChangRobertsDefinition().codec(), new ChangRobertsMessage.Elected(BIG)),
                Arguments.of(new FranklinDefinition().codec(), new FranklinMessage.Probe(BIG, 3, true)),
                Arguments.of(new FranklinDefinition().codec(), new FranklinMessage.Probe(ONE, 1, false)),
                Arguments.of(new FranklinDefinition().codec(), new FranklinMessage.Elected(ONE)),
                Arguments.of(new PetersonDefinition().codec(), new PetersonMessage.One(ONE)),
                Arguments.of(new PetersonDefinition().codec(), new PetersonMessage.Two(BIG)),
                Arguments.of(new PetersonDefinition().codec(), new PetersonMessage.Elected(BIG)));
    }

    /** Decoding an encoded message gives an equal message. */
    @ParameterizedTest
    @MethodSource("samples")
    <M extends ProtocolMessage> void roundTrip(MessageCodec<M> codec, M message) {
        assertEquals(message, codec.fromBytes(codec.toBytes(message)));
    }

    /** Truncated bytes and trailing garbage are MalformedMessageException, never another exception. */
    @ParameterizedTest
    @MethodSource("samples")
    <M extends ProtocolMessage> void truncatedOrTrailing_isMalformed(MessageCodec<M> codec, M message) {
        byte[] bytes = codec.toBytes(message);
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = Arrays.copyOf(bytes, len);
            assertThrows(MalformedMessageException.class, () -> codec.fromBytes(cut));
        }
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(MalformedMessageException.class, () -> codec.fromBytes(longer));
    }

    /** An unknown type byte is MalformedMessageException for every algorithm. */
    @Test
    void unknownType_isMalformed() {
        for (ElectionAlgorithm a : ElectionAlgorithm.messagePassing()) {
            MessageCodec<?> codec = AlgorithmDefinitions.election(a).orElseThrow().codec();
            assertThrows(MalformedMessageException.class, () -> codec.fromBytes(new byte[] {99}), a.configName());
        }
    }

    /** Every registered algorithm has a definition whose name is its configuration name, except view. */
    @Test
    void registry() {
        assertEquals(6, ElectionAlgorithm.messagePassing().size());
        for (ElectionAlgorithm a : ElectionAlgorithm.messagePassing()) {
            assertEquals(a.configName(), AlgorithmDefinitions.election(a).orElseThrow().name());
        }
        assertEquals(ElectionAlgorithm.VIEW, ElectionAlgorithm.fromConfigName("view"));
    }
}
