package io.dlock.inmemory;

import io.dlock.DlockConfig;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.Transport;
import io.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.Set;

/**
 * {@code dlock.transport=inmemory}: an endpoint on the JVM-wide {@link InMemoryNetwork#shared()
 * in-process network}, in the cluster named by {@code dlock.cluster}, with the id from
 * {@code dlock.node.id} (or the next free one) and the delay from {@code dlock.inmemory.delay-ms}.
 *
 * <h2>Settings</h2>
 * <table>
 *   <caption>dlock.inmemory.* keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code dlock.inmemory.delay-ms}</td><td>{@code 0}</td><td>delay of every message, 0 to 60000</td></tr>
 * </table>
 */
public final class InMemoryTransportFactory implements TransportFactory {

    /** The transport's configuration name. */
    public static final String NAME = "inmemory";
    /** Key of the delay of every message, in milliseconds. */
    public static final String DELAY_MS = "dlock.inmemory.delay-ms";

    private static final String DELAY_SETTING = "delay-ms";
    private static final long MAX_DELAY_MS = 60_000;

    /** The factory; {@link java.util.ServiceLoader} makes it. */
    public InMemoryTransportFactory() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of(DELAY_SETTING);
    }

    @Override
    public void validateSettings(ProtocolOptions settings) {
        delay(settings);
    }

    @Override
    public Transport create(DlockConfig config) {
        Long id = config.nodeId().isPresent() ? config.nodeId().getAsLong() : null;
        return InMemoryNetwork.shared().endpoint(config.cluster(), id, delay(new ProtocolOptions(config.transportSettings(NAME))));
    }

    private static Duration delay(ProtocolOptions settings) {
        return Duration.ofMillis(settings.getLong(DELAY_SETTING, 0, 0, MAX_DELAY_MS));
    }
}
