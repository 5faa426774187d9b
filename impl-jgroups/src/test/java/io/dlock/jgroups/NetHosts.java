package io.dlock.jgroups;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Hosts for measurements on a real network: Linux network namespaces {@code dso<pid>-<run>h<i>}, host {@code i}
 * with {@code eth0} at {@code 10.232.0.(i+1)/24}, each the end of a veth pair whose other end is a port of a bridge
 * in the namespace {@code dso<pid>-<run>sw}. {@link #cut} sets a host's switch port down (its packets are lost
 * below the sockets, its interface stays up), {@link #heal} sets it up. Nothing is made in the machine's own
 * namespace; {@link #close} (or a shutdown hook) removes every namespace. Needs root and {@code ip}. Test fixture.
 */
final class NetHosts implements AutoCloseable {

    private final String prefix;
    private final int count;
    private final Thread cleanup = new Thread(this::removeAll, "net-hosts-cleanup");
    private boolean closed;

    private NetHosts(String prefix, int count) {
        this.prefix = prefix;
        this.count = count;
    }

    /** Why namespaces cannot be made here, or empty. */
    static Optional<String> unavailable() {
        try {
            if (!run("id", "-u").trim().equals("0")) {
                return Optional.of("network namespaces need root");
            }
            run("ip", "netns", "list");
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("no usable 'ip netns': " + e.getMessage());
        }
    }

    /** {@code count} hosts on one bridge. */
    static NetHosts create(int count) throws IOException {
        NetHosts hosts = new NetHosts("dso" + ProcessHandle.current().pid() + "-"
                + Long.toString(System.nanoTime() & 0xfff, 36), count);
        Runtime.getRuntime().addShutdownHook(hosts.cleanup);
        try {
            String sw = hosts.prefix + "sw";
            run("ip", "netns", "add", sw);
            run("ip", "-n", sw, "link", "add", "br0", "type", "bridge");
            run("ip", "-n", sw, "link", "set", "br0", "up");
            for (int i = 0; i < count; i++) {
                String ns = hosts.namespace(i);
                run("ip", "netns", "add", ns);
                run("ip", "-n", ns, "link", "set", "lo", "up");
                run("ip", "-n", sw, "link", "add", "p" + i, "type", "veth", "peer", "name", "eth0", "netns", ns);
                run("ip", "-n", sw, "link", "set", "p" + i, "master", "br0");
                run("ip", "-n", sw, "link", "set", "p" + i, "up");
                run("ip", "-n", ns, "addr", "add", hosts.address(i) + "/24", "dev", "eth0");
                run("ip", "-n", ns, "link", "set", "eth0", "up");
            }
        } catch (IOException | RuntimeException e) {
            hosts.close();
            throw e;
        }
        return hosts;
    }

    String address(int i) {
        return "10.232.0." + (i + 1);
    }

    String namespace(int i) {
        return prefix + "h" + i;
    }

    /** The command prefix that runs a program on host {@code i}. */
    List<String> on(int i) {
        return List.of("ip", "netns", "exec", namespace(i));
    }

    void cut(int i) throws IOException {
        run("ip", "-n", prefix + "sw", "link", "set", "p" + i, "down");
    }

    void heal(int i) throws IOException {
        run("ip", "-n", prefix + "sw", "link", "set", "p" + i, "up");
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway
        }
    }

    private void removeAll() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(namespace(i));
        }
        names.add(prefix + "sw");
        for (String ns : names) {
            try {
                run("ip", "netns", "del", ns);
            } catch (IOException e) {
                // already gone
            }
        }
    }

    private static String run(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not end within 20 s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out.trim());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
    }
}
