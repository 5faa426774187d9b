package io.dlock.spi;

import io.dlock.DlockConfig;

/**
 * Creates the {@link Transport} named by {@code dlock.transport}. Implementations are found with
 * {@link java.util.ServiceLoader}: a transport module lists its factory in
 * {@code META-INF/services/io.dlock.spi.TransportFactory}.
 */
public interface TransportFactory {

    /** The value of {@code dlock.transport} that selects this factory, e.g. {@code inmemory}. */
    String name();

    /**
     * A new, not yet started transport for {@code config}.
     *
     * @throws TransportException if the configuration cannot be used by this transport
     */
    Transport create(DlockConfig config);
}
