package io.dlock.samples.realnet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hosts on one machine, each a Linux network namespace with its own address, joined by a bridge: a small
 * real network whose links a test can cut. Each host {@code i} (0-based) has the interface {@code eth0}
 * with the address {@code 10.231.0.(i+1)/24}, one end of a veth pair whose other end is a port of a bridge
 * in a separate "switch" namespace. Nothing is created in the machine's own namespace, and the addresses
 * exist only inside these namespaces.
 *
 * <p>{@link #cut} sets the host's switch port down: the host's interface stays up (its routes stay, its
 * sockets see no error), and every packet it sends or should receive is lost below the sockets, as when
 * a cable is pulled at the switch. {@link #heal} sets the port up again.
 *
 * <p>The switch has a second bridge, {@code br1}, with no port at first. {@link #split} moves some hosts' ports
 * to it: the hosts on each bridge still reach one another, and nothing crosses between the two groups (the
 * bridges are not linked). {@link #mergeSplit} moves them back to {@code br0}. A port keeps its up or down
 * state when it moves, so a split and a cut compose.
 *
 * <p>Namespaces are named {@code dlk<pid>-<run>sw} and {@code dlk<pid>-<run>h<i>}, after the test JVM's pid, so
 * that {@link #create} can remove what an earlier run left behind (a JVM that was killed) without
 * touching another live run's. {@link #close} removes everything, and a shutdown hook does it when the
 * JVM ends with the hosts still open. Needs root and the {@code ip} command ({@link #unavailable}).
 */
final class VirtualHosts implements AutoCloseable {

    private static final Pattern OURS = Pattern.compile("^dlk(\\d+)-");
    private static final long IP_TIMEOUT_S = 20;

    private final String prefix;
    private final int count;
    private final Thread cleanup;
    /** The hosts whose switch port is on the second bridge. */
    private final Set<Integer> split = new TreeSet<>();
    private boolean closed;

    private VirtualHosts(String prefix, int count) {
        this.prefix = prefix;
        this.count = count;
        this.cleanup = new Thread(this::removeAll, "virtual-hosts-cleanup");
    }

    /**
     * Why the hosts cannot be built on this machine (not root, no {@code ip}, namespaces refused), or
     * empty if they can.
     */
    static Optional<String> unavailable() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.of("network namespaces need Linux; this is " + System.getProperty("os.name"));
        }
        try {
            Result id = run(List.of("id", "-u"));
            if (!id.out().trim().equals("0")) {
                return Optional.of("network namespaces need root; this user's uid is " + id.out().trim());
            }
            Result ip = run(List.of("ip", "netns", "list"));
            if (ip.code() != 0) {
                return Optional.of("'ip netns list' failed: " + ip.out().trim());
            }
        } catch (IOException e) {
            return Optional.of("the 'ip' command is missing (iproute2): " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Builds {@code count} hosts on a bridge; on failure removes whatever was made and throws. */
    static VirtualHosts create(int count) throws IOException {
        removeLeftovers();
        VirtualHosts hosts = new VirtualHosts("dlk" + ProcessHandle.current().pid() + "-"
                + Long.toString(System.nanoTime() & 0xfff, 36), count);
        Runtime.getRuntime().addShutdownHook(hosts.cleanup);
        try {
            hosts.build();
        } catch (IOException | RuntimeException e) {
            hosts.close();
            throw e;
        }
        return hosts;
    }

    private void build() throws IOException {
        String sw = switchNamespace();
        ip("netns", "add", sw);
        ip("-n", sw, "link", "add", "br0", "type", "bridge");
        ip("-n", sw, "link", "set", "br0", "up");
        ip("-n", sw, "link", "add", "br1", "type", "bridge");
        ip("-n", sw, "link", "set", "br1", "up");
        for (int i = 0; i < count; i++) {
            String ns = namespace(i);
            ip("netns", "add", ns);
            ip("-n", ns, "link", "set", "lo", "up");
            ip("-n", sw, "link", "add", port(i), "type", "veth", "peer", "name", "eth0", "netns", ns);
            ip("-n", sw, "link", "set", port(i), "master", "br0");
            ip("-n", sw, "link", "set", port(i), "up");
            ip("-n", ns, "addr", "add", address(i) + "/24", "dev", "eth0");
            ip("-n", ns, "link", "set", "eth0", "up");
        }
    }

    /** How many hosts. */
    int count() {
        return count;
    }

    /** The address of host {@code i}. */
    String address(int i) {
        check(i);
        return "10.231.0." + (i + 1);
    }

    /** The namespace of host {@code i}. */
    String namespace(int i) {
        check(i);
        return prefix + "h" + i;
    }

    /** The command prefix that runs a program on host {@code i}. */
    List<String> on(int i) {
        return List.of("ip", "netns", "exec", namespace(i));
    }

    /** Cuts host {@code i} off: its switch port goes down, its packets are lost. */
    void cut(int i) throws IOException {
        ip("-n", switchNamespace(), "link", "set", port(i), "down");
    }

    /** Reconnects host {@code i}. */
    void heal(int i) throws IOException {
        ip("-n", switchNamespace(), "link", "set", port(i), "up");
    }

    /**
     * Splits the network in two: the hosts {@code split} (0-based) are moved to the second bridge, the others stay
     * on the first. Hosts split off by an earlier call stay split off.
     */
    synchronized void split(Set<Integer> split) throws IOException {
        for (int i : new TreeSet<>(split)) {
            check(i);
            ip("-n", switchNamespace(), "link", "set", port(i), "master", "br1");
            this.split.add(i);
        }
    }

    /** Moves every host that {@link #split} moved back to the first bridge: one network again. */
    synchronized void mergeSplit() throws IOException {
        for (Iterator<Integer> it = split.iterator(); it.hasNext(); ) {
            ip("-n", switchNamespace(), "link", "set", port(it.next()), "master", "br0");
            it.remove();
        }
    }

    /** The hosts (0-based) that are split off on the second bridge now. */
    synchronized Set<Integer> splitOff() {
        return Set.copyOf(split);
    }

    /** Removes every namespace (and so every link) of these hosts; idempotent. */
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
            // the JVM is shutting down and the hook runs anyway
        }
    }

    /** Deletes every namespace; also from an interrupted thread (a test that timed out), whose flag it keeps. */
    private void removeAll() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(namespace(i));
        }
        names.add(switchNamespace());
        boolean interrupted = Thread.interrupted(); // else each 'ip netns del' would be abandoned at once
        try {
            for (String ns : names) {
                deleteQuietly(ns);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private String switchNamespace() {
        return prefix + "sw";
    }

    private static String port(int i) {
        return "p" + i;
    }

    private void check(int i) {
        if (i < 0 || i >= count) {
            throw new IllegalArgumentException("host " + i + " does not exist; hosts are 0 to " + (count - 1));
        }
    }

    /** Removes namespaces of earlier test JVMs that are no longer alive. */
    private static void removeLeftovers() throws IOException {
        for (String line : run(List.of("ip", "netns", "list")).out().split("\n")) {
            Matcher m = OURS.matcher(line.trim());
            if (m.find() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                deleteQuietly(line.trim().split("\\s+")[0]);
            }
        }
    }

    private static void deleteQuietly(String ns) {
        try {
            run(List.of("ip", "netns", "del", ns));
        } catch (IOException e) {
            // best effort: reported by the next run's leftover check
        }
    }

    private static void ip(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        Result r = run(cmd);
        if (r.code() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed (" + r.code() + "): " + r.out().trim());
        }
    }

    private record Result(int code, String out) {
    }

    private static Result run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(IP_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not end within " + IP_TIMEOUT_S + " s");
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running " + String.join(" ", cmd), e);
        }
    }
}
