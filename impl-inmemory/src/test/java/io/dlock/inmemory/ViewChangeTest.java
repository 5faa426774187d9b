package io.dlock.inmemory;

import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.contract.ViewChangeContract;
import io.dlock.spi.Transport;
import java.util.UUID;

/** {@link ViewChangeContract} on the in-memory network. */
class ViewChangeTest extends ViewChangeContract {

    @Override
    protected DlockConfig.Builder template(MutexAlgorithm algorithm) {
        return DlockConfig.builder().mutex(algorithm).cluster("views-" + UUID.randomUUID());
    }

    @Override
    protected Transport transport(DlockConfig config) {
        return new InMemoryTransportFactory().create(config);
    }
}
