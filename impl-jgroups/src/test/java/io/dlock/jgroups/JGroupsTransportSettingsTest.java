package io.dlock.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import org.junit.jupiter.api.Test;

/**
 * The dlock.jgroups.* settings are declared and checked by JGroupsTransportFactory when a configuration is
 * built, whichever transport it selects; nothing here starts a channel.
 */
class JGroupsTransportSettingsTest {

    /** A key under dlock.jgroups. that the factory does not declare fails, naming it and every declared one. */
    @Test
    void unknownSetting_isRejected() {
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set("dlock.jgroups.prot", "7800").build());
        assertTrue(e.getMessage().startsWith("unknown configuration key 'dlock.jgroups.prot' for transport jgroups;"
                + " allowed options: "), e.getMessage());
        for (String key : new String[] {JGroupsTransportFactory.STACK, JGroupsTransportFactory.BIND_ADDR,
                JGroupsTransportFactory.PORT, JGroupsTransportFactory.PORT_RANGE, JGroupsTransportFactory.INITIAL_HOSTS,
                JGroupsTransportFactory.KEYSTORE, JGroupsTransportFactory.KEYSTORE_PASSWORD,
                JGroupsTransportFactory.KEY_ALIAS, JGroupsTransportFactory.JOIN_TIMEOUT_MS}) {
            assertTrue(e.getMessage().contains(key), e.getMessage());
        }
    }

    /** Out-of-range numbers, a bad host list and an empty stack name fail, naming key, value and what is allowed. */
    @Test
    void badValues_areRejected() {
        assertEquals("transport jgroups: dlock.jgroups.port=0 is out of range; allowed: 1 to 65535",
                reject(JGroupsTransportFactory.PORT, "0"));
        assertEquals("transport jgroups: dlock.jgroups.port-range=1001 is out of range; allowed: 0 to 1000",
                reject(JGroupsTransportFactory.PORT_RANGE, "1001"));
        assertEquals("transport jgroups: dlock.jgroups.join-timeout-ms=10s is not an integer; allowed: 1000 to 600000",
                reject(JGroupsTransportFactory.JOIN_TIMEOUT_MS, "10s"));
        assertEquals("transport jgroups: dlock.jgroups.initial-hosts=a:7800 is not allowed; allowed: host[port]"
                + " separated by commas, e.g. 10.0.0.1[7800],10.0.0.2[7800]",
                reject(JGroupsTransportFactory.INITIAL_HOSTS, "a:7800"));
        assertEquals("transport jgroups: dlock.jgroups.stack= is empty; allowed: a non-empty value",
                reject(JGroupsTransportFactory.STACK, " "));
    }

    /** Good values pass, also when another transport is selected. */
    @Test
    void goodValues_areKept() {
        DlockConfig config = DlockConfig.builder().transport("inmemory").set(JGroupsTransportFactory.PORT, "7900")
                .set(JGroupsTransportFactory.INITIAL_HOSTS, "10.0.0.1[7900],10.0.0.2[7900]").build();
        assertEquals("7900", config.transportSettings(JGroupsTransportFactory.NAME).get("port"));
    }

    private static String reject(String key, String value) {
        return assertThrows(DlockConfigException.class, () -> DlockConfig.builder().set(key, value).build()).getMessage();
    }
}
