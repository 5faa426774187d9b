package io.dlock.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import org.junit.jupiter.api.Test;

/** The dlock.inmemory.* settings are declared and checked by InMemoryTransportFactory when a configuration is built. */
class InMemoryTransportSettingsTest {

    /** A key under dlock.inmemory. that the factory does not declare fails, naming it and the declared ones. */
    @Test
    void unknownSetting_isRejected() {
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set("dlock.inmemory.delay", "5").build());
        assertEquals("unknown configuration key 'dlock.inmemory.delay' for transport inmemory; allowed options: "
                + InMemoryTransportFactory.DELAY_MS, e.getMessage());
    }

    /** A delay outside 0..60000 or not a number fails, naming the key, the value and the range. */
    @Test
    void badDelay_isRejected() {
        for (String bad : new String[] {"-1", "60001", "soon"}) {
            DlockConfigException e = assertThrows(DlockConfigException.class,
                    () -> DlockConfig.builder().set(InMemoryTransportFactory.DELAY_MS, bad).build());
            assertTrue(e.getMessage().startsWith("transport inmemory: " + InMemoryTransportFactory.DELAY_MS + "=" + bad
                    + " is "), e.getMessage());
            assertTrue(e.getMessage().endsWith("allowed: 0 to 60000"), e.getMessage());
        }
    }

    /** A good delay reaches the factory's settings, prefix removed; unset, the settings are empty. */
    @Test
    void goodDelay_isKept() {
        DlockConfig config = DlockConfig.builder().set(InMemoryTransportFactory.DELAY_MS, "25").build();
        assertEquals("25", config.transportSettings(InMemoryTransportFactory.NAME).get("delay-ms"));
        assertTrue(DlockConfig.builder().build().transportSettings(InMemoryTransportFactory.NAME).isEmpty());
    }
}
