package io.dlock.jgroups;

import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.spi.Transport;
import io.dlock.spi.TransportFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code dlock.transport=jgroups}: a {@link JGroupsTransport} that joins the cluster named by
 * {@code dlock.cluster} with the stack chosen by {@code dlock.jgroups.stack}.
 *
 * <h2>Stacks</h2>
 * <table>
 *   <caption>Built-in stacks (resources {@code io/dlock/jgroups/stacks/<name>.xml})</caption>
 *   <tr><th>name</th><th>what</th></tr>
 *   <tr><td>{@code default}</td><td>TCP bound to 127.0.0.1, TCPPING on 127.0.0.1 ports 7800-7810: several nodes on one
 *       machine, nothing leaves the host</td></tr>
 *   <tr><td>{@code tcp}</td><td>TCP with an initial-hosts list, for clusters across machines; needs
 *       {@code dlock.jgroups.initial-hosts} and normally {@code dlock.jgroups.bind-addr}</td></tr>
 *   <tr><td>{@code secure}</td><td>{@code tcp} plus SYM_ENCRYPT (AES/CBC) with the key in
 *       {@code dlock.jgroups.keystore}: only holders of the key join and read traffic</td></tr>
 *   <tr><td>{@code loopback}</td><td>SHARED_LOOPBACK: channels of one JVM only (tests, demos)</td></tr>
 * </table>
 * Any other value ending in {@code .xml} is a stack file (a path, else a class-path resource). Before
 * JGroups reads a stack, the placeholders {@code ${dlock.jgroups.bind-addr}}, {@code ${dlock.jgroups.port}},
 * {@code ${dlock.jgroups.port-range}}, {@code ${dlock.jgroups.initial-hosts}}, {@code ${dlock.jgroups.keystore}},
 * {@code ${dlock.jgroups.keystore-type}} (PKCS12, or JCEKS for a {@code .jceks} file),
 * {@code ${dlock.jgroups.keystore-password}} and {@code ${dlock.jgroups.key-alias}} are replaced by the
 * configuration's values; other {@code ${...}} placeholders are left to JGroups (system properties).
 *
 * <h2>Failure detection</h2>
 * The TCP stacks detect a crashed member in three steps: FD_SOCK2 (a dead process closes its socket, so
 * its neighbour suspects it at once; a hung one is caught by) FD_ALL3 (heartbeat every 1 s, suspected
 * after 4 s on {@code default}, 6 s on {@code tcp} and {@code secure}), then VERIFY_SUSPECT2 (the
 * suspect must answer within 1 s, 1.5 s) before GMS installs a view without it. A {@code kill -9} thus
 * leaves the view in about 1-2 s, a hung process in about 5-8 s. Change the timeouts with the system
 * properties {@code jgroups.fd_all3.timeout}, {@code jgroups.fd_all3.interval} and
 * {@code jgroups.verify_suspect.timeout} (e.g. {@code -Djgroups.fd_all3.timeout=10s}), or copy a stack
 * file and name the copy in {@code dlock.jgroups.stack}. The {@code loopback} stack has no failure
 * detection: members leave by closing.
 */
public final class JGroupsTransportFactory implements TransportFactory {

    /** The transport's configuration name. */
    public static final String NAME = "jgroups";
    /** The built-in stack names. */
    public static final List<String> BUILT_IN_STACKS = List.of("default", "tcp", "secure", "loopback");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(dlock\\.jgroups\\.[a-z-]+)}");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Transport create(DlockConfig config) {
        return create(config, true);
    }

    /**
     * A transport for {@code config}; {@code dontBundle=false} sends through JGroups' bundler (for the
     * latency benchmark only).
     *
     * @throws DlockConfigException if the stack cannot be found or lacks a setting it needs
     */
    public static JGroupsTransport create(DlockConfig config, boolean dontBundle) {
        Map<String, String> v = config.values();
        String stack = v.getOrDefault(DlockConfig.JGROUPS_STACK, "default");
        String xml = substitute(readStack(stack), settings(config, stack));
        long joinMs = Long.parseLong(v.getOrDefault(DlockConfig.JGROUPS_JOIN_TIMEOUT_MS, "30000"));
        return new JGroupsTransport(config.cluster(), stack, xml.getBytes(StandardCharsets.UTF_8), config.nodeId(),
                Duration.ofMillis(joinMs), dontBundle);
    }

    /** The placeholder values for {@code stack}; checks that the stack's required settings are present. */
    static Map<String, String> settings(DlockConfig config, String stack) {
        Map<String, String> v = config.values();
        String bind = v.getOrDefault(DlockConfig.JGROUPS_BIND_ADDR, "127.0.0.1");
        String port = v.getOrDefault(DlockConfig.JGROUPS_PORT, "7800");
        if (stack.equals("tcp") && !v.containsKey(DlockConfig.JGROUPS_INITIAL_HOSTS)) {
            throw new DlockConfigException(DlockConfig.JGROUPS_STACK + "=tcp needs " + DlockConfig.JGROUPS_INITIAL_HOSTS
                    + " (host[port],host[port],... of the cluster's members), and normally " + DlockConfig.JGROUPS_BIND_ADDR);
        }
        Map<String, String> s = new LinkedHashMap<>();
        s.put(DlockConfig.JGROUPS_BIND_ADDR, bind);
        s.put(DlockConfig.JGROUPS_PORT, port);
        s.put(DlockConfig.JGROUPS_PORT_RANGE, v.getOrDefault(DlockConfig.JGROUPS_PORT_RANGE, "10"));
        s.put(DlockConfig.JGROUPS_INITIAL_HOSTS,
                v.getOrDefault(DlockConfig.JGROUPS_INITIAL_HOSTS, bind + "[" + port + "]").replace(" ", ""));
        s.put(DlockConfig.JGROUPS_KEY_ALIAS, v.getOrDefault(DlockConfig.JGROUPS_KEY_ALIAS, "dlock"));
        String keystore = v.get(DlockConfig.JGROUPS_KEYSTORE);
        String password = v.get(DlockConfig.JGROUPS_KEYSTORE_PASSWORD);
        if (stack.equals("secure")) {
            if (keystore == null || password == null) {
                throw new DlockConfigException(DlockConfig.JGROUPS_STACK + "=secure needs " + DlockConfig.JGROUPS_KEYSTORE
                        + " (a PKCS12 or JCEKS file holding the cluster's AES key) and "
                        + DlockConfig.JGROUPS_KEYSTORE_PASSWORD);
            }
            if (!Files.isReadable(Path.of(keystore))) {
                throw new DlockConfigException(DlockConfig.JGROUPS_KEYSTORE + "=" + keystore + ": no such readable file");
            }
        }
        if (keystore != null) {
            s.put(DlockConfig.JGROUPS_KEYSTORE, Path.of(keystore).toAbsolutePath().toString());
            s.put("dlock.jgroups.keystore-type", keystore.toLowerCase(java.util.Locale.ROOT).endsWith(".jceks")
                    ? "JCEKS" : "PKCS12");
        }
        if (password != null) {
            s.put(DlockConfig.JGROUPS_KEYSTORE_PASSWORD, password);
        }
        return s;
    }

    /** The text of a built-in stack, a stack file or a class-path resource. */
    static String readStack(String stack) {
        String resource = BUILT_IN_STACKS.contains(stack) ? "stacks/" + stack + ".xml" : null;
        try {
            if (resource != null) {
                return readResource(JGroupsTransportFactory.class.getResourceAsStream(resource), stack);
            }
            if (!stack.endsWith(".xml")) {
                throw new DlockConfigException(DlockConfig.JGROUPS_STACK + "=" + stack + " is not allowed; allowed: "
                        + String.join(", ", BUILT_IN_STACKS) + ", or a stack file or class-path resource ending in .xml");
            }
            Path file = Path.of(stack);
            if (Files.isRegularFile(file)) {
                return Files.readString(file, StandardCharsets.UTF_8);
            }
            InputStream in = Thread.currentThread().getContextClassLoader() == null ? null
                    : Thread.currentThread().getContextClassLoader().getResourceAsStream(stack);
            if (in == null) {
                throw new DlockConfigException(DlockConfig.JGROUPS_STACK + "=" + stack
                        + ": no such file or class-path resource");
            }
            return readResource(in, stack);
        } catch (IOException e) {
            throw new DlockConfigException(DlockConfig.JGROUPS_STACK + "=" + stack + " cannot be read: " + e.getMessage());
        }
    }

    private static String readResource(InputStream in, String stack) throws IOException {
        if (in == null) {
            throw new DlockConfigException(DlockConfig.JGROUPS_STACK + "=" + stack + ": built-in stack missing from the jar");
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Replaces {@code ${dlock.jgroups.*}} placeholders; one without a value is an error naming the key. */
    static String substitute(String xml, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(xml.replaceAll("(?s)<!--.*?-->", ""));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String key = m.group(1);
            String value = values.get(key);
            if (value == null) {
                throw new DlockConfigException("the JGroups stack uses ${" + key + "} but " + key + " is not set");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(xmlEscape(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String xmlEscape(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
