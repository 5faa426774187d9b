/**
 * The {@code dlock} command line and the examples. An application, so it exports nothing; its command
 * packages ({@code io.dlock.samples} and {@code io.dlock.samples.bench}) are open to picocli, which reads the
 * commands' annotated fields by reflection. JGroups comes
 * with {@code io.dlock.jgroups}; xchart 3.8.8 has no module descriptor (automatic module
 * {@code org.knowm.xchart}, from its manifest); picocli, progressbar and slf4j have descriptors.
 * It uses dlock's public API only ({@code dlock bench --per-key} reads the live locks from
 * {@code LockService.nodeMetrics()}).
 */
module io.dlock.samples {
    requires io.dlock.inmemory;
    requires io.dlock.jgroups;
    requires io.dlock.bench;
    requires info.picocli;
    requires org.knowm.xchart;
    requires me.tongfei.progressbar;
    requires java.desktop;
    // dlock bench --per-key: the heap left after reclamation
    requires java.management;

    opens io.dlock.samples to info.picocli;
    opens io.dlock.samples.bench to info.picocli;
}
