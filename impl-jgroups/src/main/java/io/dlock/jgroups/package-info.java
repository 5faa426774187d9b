/**
 * The JGroups transport of dlock: {@link io.dlock.jgroups.JGroupsTransport} carries every lock and
 * election of a node over one {@link org.jgroups.JChannel}, with membership from JGroups views and node
 * ids carried in the members' addresses; {@link io.dlock.jgroups.JGroupsTransportFactory} selects it with
 * {@code dlock.transport=jgroups} and builds the channel from a shipped stack ({@code default},
 * {@code tcp}, {@code secure}, {@code loopback}) or a stack file named by {@code dlock.jgroups.stack};
 * {@link io.dlock.jgroups.REJECT_GUARD} keeps a node with the wrong key from flooding the secure stack's log.
 */
package io.dlock.jgroups;
