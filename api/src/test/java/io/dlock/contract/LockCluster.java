package io.dlock.contract;

import io.dlock.LockService;
import java.util.List;

/**
 * A cluster of lock services that a transport's test started in this JVM, all of one cluster name, every node in
 * one view when it is handed over. The contract suites address nodes by index ({@code 0..n-1}, in start order);
 * which node ids they have is the transport's business. Closing it closes every node.
 */
public interface LockCluster extends AutoCloseable {

    /** The nodes, in start order. */
    List<LockService> nodes();

    /** The node at {@code index} ({@code 0..n-1}). */
    default LockService node(int index) {
        return nodes().get(index);
    }

    /** Closes every node. */
    @Override
    void close();
}
