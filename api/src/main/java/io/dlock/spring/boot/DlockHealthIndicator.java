package io.dlock.spring.boot;

import io.dlock.ClusterView;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.NodeId;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The health of one dlock node, contributed as {@code dlock} to Spring Boot's health endpoint.
 *
 * <ul>
 *   <li>{@code UP}: the node is open and in a <em>primary</em> view, so it may grant locks and elect leaders;</li>
 *   <li>{@code DOWN}: the node is in a view that is not primary (fewer than a majority of
 *       {@code dlock.cluster.size} members reachable: its lock requests wait, its elections have no leader), or it
 *       has been closed. {@code DOWN} rather than {@code OUT_OF_SERVICE}: the node is not taken out on purpose, it
 *       cannot do its work, and a load balancer or orchestrator should treat it as failing (both map to HTTP 503
 *       by default).</li>
 * </ul>
 * Details: {@code node} (this node's id), {@code members} (the ids of the view's members), {@code viewEpoch} (the
 * epoch the view started, the same on every member of the view), {@code primary}, {@code clusterSize}
 * ({@code dlock.cluster.size}, or {@code "not set"}) and, when {@code DOWN}, {@code reason}. Reading them creates
 * no lock state and sends no message.
 */
public final class DlockHealthIndicator implements HealthIndicator {

    private final LockService service;

    /** @param service the node whose health is reported */
    public DlockHealthIndicator(LockService service) {
        this.service = service;
    }

    @Override
    public Health health() {
        ClusterView view = service.view();
        Health.Builder health;
        if (service.isClosed()) {
            health = Health.down().withDetail("reason", "the node is closed");
        } else if (!view.primary()) {
            health = Health.down().withDetail("reason", "the view is not primary: " + view.size() + " member(s) of "
                    + clusterSize() + " reachable, locks are not granted and leaders are not elected");
        } else {
            health = Health.up();
        }
        List<Long> members = view.members().stream().map(NodeId::value).toList();
        return health.withDetail("node", view.self().value())
                .withDetail("members", members)
                .withDetail("viewEpoch", view.epoch())
                .withDetail("primary", view.primary())
                .withDetail("clusterSize", clusterSize())
                .build();
    }

    /** {@code dlock.cluster.size} as configured, or {@code "not set"}. */
    private Object clusterSize() {
        DlockConfig config = service.config();
        return config.clusterSize().isPresent() ? (Object) config.clusterSize().getAsInt() : "not set";
    }
}
