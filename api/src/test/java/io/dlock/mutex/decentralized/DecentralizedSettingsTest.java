package io.dlock.mutex.decentralized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dlock.NodeId;
import io.dlock.mutex.testing.RecordingEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.View;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link DecentralizedSettings}: shared between equal options, and a back-off source made late draws the same. */
class DecentralizedSettingsTest {

    /** With and without the driver's seed, for small, large and random 32-bit ids. */
    @Test
    void aSourceMadeAtTheFirstDrawDrawsWhatTheContextsWould() {
        SplittableRandom ids = new SplittableRandom(3);
        List<ProtocolOptions> optionSets = List.of(ProtocolOptions.NONE,
                ProtocolOptions.NONE.with(DecentralizedDefinition.SEED, "42"), ProtocolOptions.NONE.withRandomSeed(99));
        for (ProtocolOptions options : optionSets) {
            for (long id : new long[] {1, 2, 3, 4_096, ids.nextLong(1L << 32), Long.MAX_VALUE}) {
                NodeId self = NodeId.of(id);
                View view = new View(5, List.of(NodeId.of(0), self));
                long fallback = Long.parseLong(options.values().getOrDefault(DecentralizedDefinition.SEED, "0"));
                SplittableRandom eager = new ProtocolContext<DecentralizedMessage>(self, view,
                        new RecordingEffects<>(self, view), options).random(fallback);
                DecentralizedSettings settings = new DecentralizedSettings(options, 0, 10, 10, 1000, fallback);
                SplittableRandom late = settings.randomOf(self);
                for (int draw = 0; draw < 20; draw++) {
                    assertEquals(eager.nextLong(1 + draw * 1000L), late.nextLong(1 + draw * 1000L));
                }
            }
        }
    }

    /** Protocols created with equal options share their settings; other options get their own. */
    @Test
    void equalOptionsShareTheirSettings() {
        DecentralizedDefinition definition = new DecentralizedDefinition();
        View view = View.ofRange(1, 3);
        ProtocolOptions options = ProtocolOptions.NONE.with(DecentralizedDefinition.BACKOFF_MS, "20");
        Decentralized a = (Decentralized) definition.create(new ProtocolContext<>(view.member(0), view,
                new RecordingEffects<>(view.member(0), view), options));
        Decentralized b = (Decentralized) definition.create(new ProtocolContext<>(view.member(1), view,
                new RecordingEffects<>(view.member(0), view), ProtocolOptions.NONE.with(DecentralizedDefinition.BACKOFF_MS, "20")));
        Decentralized c = (Decentralized) definition.create(new ProtocolContext<>(view.member(1), view,
                new RecordingEffects<>(view.member(0), view), options.with(DecentralizedDefinition.QUORUM, "all")));
        assertSame(a.settings(), b.settings());
        assertNotSame(a.settings(), c.settings());
        assertEquals(20, a.settings().backoffBase());
        assertEquals(Integer.MAX_VALUE, c.settings().quorumOption());
        ProtocolOptions bad = options.with(DecentralizedDefinition.BACKOFF_MS, "0");
        assertThrows(IllegalArgumentException.class, () -> definition.create(new ProtocolContext<>(view.member(0), view,
                new RecordingEffects<>(view.member(0), view), bad)));
    }
}
