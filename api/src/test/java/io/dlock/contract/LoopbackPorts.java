package io.dlock.contract;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Base ports for JGroups nodes that the tests start in child JVMs on 127.0.0.1.
 *
 * <p>Why not {@code new ServerSocket(0)}: that port comes from the kernel's ephemeral range
 * (32768-60999 on Linux), which is also where every outgoing connection's local port comes from; the
 * nodes' own discovery connections, opened while they start, took the ports above the chosen one, and
 * the third node found its whole range taken ("No available port to bind to in range"). A block below
 * the ephemeral range is never handed out to a connection; it is checked free by binding each port once.
 * The block is chosen so that FD_SOCK2's ports ({@value #FD_SOCK2_OFFSET} above each node's) stay below the
 * ephemeral range too.
 */
public final class LoopbackPorts {

    private static final int LOWEST = 20_000;
    private static final int BELOW_EPHEMERAL = 32_768;
    private static final int ATTEMPTS = 100;
    /** FD_SOCK2 listens this far above a node's TCP port. */
    private static final int FD_SOCK2_OFFSET = 100;

    private LoopbackPorts() {
    }

    /** The first of {@code size} consecutive ports, all free on 127.0.0.1 now and below the ephemeral range. */
    public static int freeBlock(int size) {
        if (size < 1 || size > 1_000) {
            throw new IllegalArgumentException("block size " + size + " is not in 1..1000");
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int base = random.nextInt(LOWEST, BELOW_EPHEMERAL - FD_SOCK2_OFFSET - size);
            if (allFree(base, size)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + size + " free consecutive ports in " + LOWEST + ".." + BELOW_EPHEMERAL
                + " on 127.0.0.1 after " + ATTEMPTS + " attempts");
    }

    private static boolean allFree(int base, int size) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int port = base; port < base + size; port++) {
                ServerSocket s = new ServerSocket();
                held.add(s);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a socket that was bound or failed to bind: nothing to do
                }
            }
        }
    }
}
