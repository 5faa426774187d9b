/**
 * The service-provider interface between dlock's runtime and a network: {@link io.dlock.spi.Transport}
 * moves bytes and reports {@link io.dlock.spi.View views} of {@link io.dlock.NodeId members};
 * {@link io.dlock.spi.TransportFactory} makes one from the configuration. {@link io.dlock.spi.WireWriter}
 * and {@link io.dlock.spi.WireReader} define the compact binary format every message codec uses (node ids
 * included: {@code writeNodeId}, {@code readNodeId}); {@link io.dlock.spi.CodecSupport} holds the validation
 * every codec repeats (unknown type byte, a field the message record refuses).
 *
 * <p>Two transports exist: the in-process network ({@code dlock-inmemory}) and JGroups
 * ({@code dlock-jgroups}). The algorithms never see which one carries their messages.
 */
package io.dlock.spi;

