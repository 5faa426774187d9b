package io.dlock.inmemory.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlock.DlockConfig;
import io.dlock.ElectionAlgorithm;
import io.dlock.MutexAlgorithm;
import io.dlock.spring.boot.DlockAutoConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Spring configuration metadata that dlock-api ships for IDEs (META-INF/spring-configuration-metadata.json)
 * agrees with {@link DlockConfig}: every key of DlockConfig is described, each default is the one DlockConfig applies,
 * and the value hints name every algorithm. A key added to DlockConfig without its metadata fails here.
 */
class ConfigurationMetadataTest {

    private final JsonNode metadata = read();

    /** Every key of DlockConfig, and the Spring-only lock names, has an entry with a type and a description. */
    @Test
    void describesEveryDlockConfigKey() {
        Map<String, JsonNode> properties = properties();
        assertThat(properties).containsKeys(DlockConfig.keys().toArray(String[]::new))
                .containsKey(DlockAutoConfiguration.METRICS_LOCK_NAMES);
        properties.values().forEach(p -> assertThat(p.path("type").asText()).as(p.toString()).isNotEmpty());
        properties.values().forEach(p -> assertThat(p.path("description").asText()).as(p.toString()).isNotEmpty());
    }

    /** The documented defaults are those of a DlockConfig built with no key set. */
    @Test
    void defaultsAreDlockConfigDefaults() {
        DlockConfig defaults = DlockConfig.builder().build();
        Map<String, Object> expected = new HashMap<>(Map.of(
                DlockConfig.MUTEX, defaults.mutex().configName(),
                DlockConfig.ELECTION, defaults.election().configName(),
                DlockConfig.TRANSPORT, defaults.transport(),
                DlockConfig.CLUSTER, defaults.cluster(),
                DlockConfig.LEASE_MS, defaults.lease().toMillis(),
                DlockConfig.TRY_TIMEOUT_MS, defaults.tryTimeout().toMillis(),
                DlockConfig.LOCAL_HANDOFF, (long) defaults.localHandoff(),
                DlockConfig.IDLE_EXPIRY_MS, defaults.idleExpiry().toMillis(),
                DlockConfig.MAX_LIVE, (long) defaults.maxLiveLocks(),
                DlockConfig.METRICS_JMX, defaults.metricsJmx()));
        expected.put(DlockConfig.GRANT_SPIN_US, defaults.grantSpin().toNanos() / 1000);
        Map<String, JsonNode> properties = properties();
        expected.forEach((key, value) -> {
            JsonNode documented = properties.get(key).get("defaultValue");
            Object actual = documented.isBoolean() ? documented.asBoolean()
                    : documented.isNumber() ? documented.asLong() : documented.asText();
            assertThat(actual).as(key).isEqualTo(value);
        });
        assertThat(properties.get(DlockConfig.CLUSTER_SIZE).has("defaultValue")).isFalse();
        assertThat(properties.get(DlockConfig.NODE_ID).has("defaultValue")).isFalse();
    }

    /** The hints of dlock.mutex and dlock.election list every algorithm's configuration name. */
    @Test
    void hintsNameEveryAlgorithm() {
        assertThat(hintValues(DlockConfig.MUTEX)).containsExactlyInAnyOrderElementsOf(
                Arrays.stream(MutexAlgorithm.values()).map(MutexAlgorithm::configName).toList());
        assertThat(hintValues(DlockConfig.ELECTION)).containsExactlyInAnyOrderElementsOf(
                Arrays.stream(ElectionAlgorithm.values()).map(ElectionAlgorithm::configName).toList());
    }

    private Map<String, JsonNode> properties() {
        Map<String, JsonNode> byName = new HashMap<>();
        metadata.get("properties").forEach(p -> byName.put(p.get("name").asText(), p));
        return byName;
    }

    private List<String> hintValues(String key) {
        for (JsonNode hint : metadata.get("hints")) {
            if (hint.get("name").asText().equals(key)) {
                return hint.get("values").findValuesAsText("value");
            }
        }
        throw new AssertionError("no hint for " + key);
    }

    private static JsonNode read() {
        try (InputStream in = DlockAutoConfiguration.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json in dlock-api").isNotNull();
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
