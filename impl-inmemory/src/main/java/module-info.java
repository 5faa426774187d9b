/**
 * The in-process network: the real-time {@code inmemory} transport (provided to {@code io.dlock.api}'s
 * {@link java.util.ServiceLoader}) and the deterministic simulator. Exports {@code io.dlock.inmemory}
 * (the network and its transport factory, for embedded use and tests) and {@code io.dlock.inmemory.sim}
 * (the simulator, its workloads, fault plans and results, which the CLI and users' tests run).
 */
module io.dlock.inmemory {
    requires transitive io.dlock.api;
    requires org.slf4j;

    exports io.dlock.inmemory;
    exports io.dlock.inmemory.sim;

    provides io.dlock.spi.TransportFactory with io.dlock.inmemory.InMemoryTransportFactory;
}
