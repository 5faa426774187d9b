package io.dlock.jgroups;

import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.contract.ViewChangeContract;
import io.dlock.spi.Transport;
import java.util.UUID;

/**
 * {@link ViewChangeContract} over JGroups, on the default TCP stack on 127.0.0.1: batches of up to 64 KB pass
 * JGroups (FRAG2 splits those over 60 KB).
 */
class JGroupsViewChangeTest extends ViewChangeContract {

    @Override
    protected DlockConfig.Builder template(MutexAlgorithm algorithm) {
        return JGroupsCluster.tcpTemplate(JGroupsCluster.base(algorithm), 4).cluster("views-" + UUID.randomUUID());
    }

    @Override
    protected Transport transport(DlockConfig config) {
        return JGroupsTransportFactory.newTransport(config);
    }

    @Override
    protected int names() {
        return Integer.getInteger("dlock.viewchange.names", 600);
    }
}
