/**
 * The JGroups transport ({@code dlock.transport=jgroups}), provided to {@code io.dlock.api}'s
 * {@link java.util.ServiceLoader}. Exports {@code io.dlock.jgroups}: the factory with its setting keys, the
 * transport, and {@code REJECT_GUARD}, a JGroups protocol that stack files name; the package is also open
 * to JGroups, which creates and configures the protocols of a stack by reflection. JGroups is required
 * transitively because that API shows JGroups types ({@code REJECT_GUARD} extends its {@code Protocol},
 * {@code JGroupsTransport} hands out its channel). JGroups 5.5.7 has no module descriptor; its jar's
 * manifest names the automatic module {@code org.jgroups}.
 */
module io.dlock.jgroups {
    requires transitive io.dlock.api;
    requires transitive org.jgroups;
    requires org.slf4j;

    exports io.dlock.jgroups;
    opens io.dlock.jgroups to org.jgroups;

    provides io.dlock.spi.TransportFactory with io.dlock.jgroups.JGroupsTransportFactory;
}
