package io.dlock.spi;

import io.dlock.DlockConfig;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Creates the {@link Transport} named by {@code dlock.transport}. Implementations are found with
 * {@link java.util.ServiceLoader}: a transport module lists its factory in
 * {@code META-INF/services/io.dlock.spi.TransportFactory} and, as a named module, {@code provides} it.
 *
 * <h2>Settings</h2>
 * A transport's settings are the keys {@code dlock.<name>.<setting>}, e.g. {@code dlock.jgroups.port}.
 * The factory declares them ({@link #settingKeys()}) and checks their values
 * ({@link #validateSettings}), the way a protocol definition declares and checks its
 * {@code dlock.mutex.<option>} keys. {@link DlockConfig} asks every factory on the class or module
 * path while it validates a configuration, so a wrong key or value under a transport's prefix fails
 * when the configuration is built, with a message that names the key, the value and what is allowed.
 */
public interface TransportFactory {

    /** The value of {@code dlock.transport} that selects this factory, e.g. {@code inmemory}. */
    String name();

    /**
     * The settings this transport reads, without the prefix {@code dlock.<name>.}: e.g. {@code port}
     * for {@code dlock.jgroups.port}. Any other key under the prefix is refused. The default is none.
     */
    default Set<String> settingKeys() {
        return Set.of();
    }

    /**
     * Checks the settings given under this transport's prefix (prefix removed), all together.
     * Called only with keys from {@link #settingKeys()}. The default accepts every value.
     *
     * @throws IllegalArgumentException naming a bad setting as {@code "option <setting>=<value> ..."} and
     *                                  what is allowed ({@link ProtocolOptions#getLong} writes such messages)
     */
    default void validateSettings(ProtocolOptions settings) {
    }

    /**
     * A new, not yet started transport for {@code config}.
     *
     * @throws TransportException if the configuration cannot be used by this transport
     */
    Transport create(DlockConfig config);
}
