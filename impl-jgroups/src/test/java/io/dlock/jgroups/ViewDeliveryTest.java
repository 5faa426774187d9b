package io.dlock.jgroups;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A view change does not hold up a node's messages. The default stack delivers regular messages on TCP_NIO2's
 * selector thread ({@code message_processing_policy="direct"}), the VIEW message among them, and dlock's work for a
 * view grows with the node's live locks (seconds with 100 000): done on that thread, the node would read nothing
 * meanwhile, heartbeats included. The transport hands views over on a thread of its own ({@link ViewDelivery}).
 */
@Timeout(60)
class ViewDeliveryTest {

    /**
     * Node 2 (not the coordinator: its views come over the network) takes as long as it likes with the view that
     * adds node 3; node 1's messages sent meanwhile still reach it, and the view is handed over on the view thread.
     */
    @Test
    void aReceiverBusyWithAView_stillReceivesMessages() throws Exception {
        DlockConfig.Builder template = JGroupsCluster.tcpTemplate(JGroupsCluster.base(MutexAlgorithm.CENTRALIZED), 3)
                .cluster("view-delivery-" + java.util.UUID.randomUUID());
        CountDownLatch inBusyView = new CountDownLatch(1);
        CountDownLatch releaseView = new CountDownLatch(1);
        CountDownLatch received = new CountDownLatch(5);
        AtomicReference<String> viewThread = new AtomicReference<>();
        List<JGroupsTransport> transports = new ArrayList<>();
        try {
            JGroupsTransport n1 = start(template, 1, transports, quiet());
            start(template, 2, transports, new Transport.Receiver() {
                @Override
                public void onMessage(NodeId from, byte[] payload) {
                    if (new String(payload, StandardCharsets.UTF_8).startsWith("during-view")) {
                        received.countDown();
                    }
                }

                @Override
                public void onView(View view) {
                    if (view.size() == 3) {
                        viewThread.set(Thread.currentThread().getName());
                        inBusyView.countDown();
                        await(releaseView, 50); // a view change over many live locks
                    }
                }
            });
            start(template, 3, transports, quiet());
            assertTrue(inBusyView.await(20, TimeUnit.SECONDS), "node 2 never got the view with node 3");
            for (int i = 0; i < 5; i++) {
                n1.send(NodeId.of(2), ("during-view " + i).getBytes(StandardCharsets.UTF_8));
            }
            assertTrue(received.await(10, TimeUnit.SECONDS), "node 2 received " + (5 - received.getCount())
                    + " of 5 messages while it was busy with a view (its reader was held up)");
            assertTrue(viewThread.get().startsWith("dlock-views-"), "the view came on " + viewThread.get());
        } finally {
            releaseView.countDown();
            transports.forEach(JGroupsTransport::close);
        }
    }

    private static JGroupsTransport start(DlockConfig.Builder template, int id, List<JGroupsTransport> started,
                                          Transport.Receiver receiver) {
        JGroupsTransport t = JGroupsTransportFactory.newTransport(template.nodeId(id).build());
        started.add(t);
        t.start(receiver);
        return t;
    }

    private static Transport.Receiver quiet() {
        return new Transport.Receiver() {
            @Override
            public void onMessage(NodeId from, byte[] payload) {
            }

            @Override
            public void onView(View view) {
            }
        };
    }

    private static void await(CountDownLatch latch, int seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
