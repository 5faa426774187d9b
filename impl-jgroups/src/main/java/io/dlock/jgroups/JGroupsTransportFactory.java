package io.dlock.jgroups;

import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.protocol.ProtocolOptions;
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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
 * <h2>Settings</h2>
 * Declared by {@link #settingKeys()} and checked by {@link #validateSettings} when the configuration is built.
 * <table>
 *   <caption>dlock.jgroups.* keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code dlock.jgroups.stack}</td><td>{@code default}</td><td>a built-in stack (above) or a stack file
 *       path or class-path resource ending in {@code .xml}</td></tr>
 *   <tr><td>{@code dlock.jgroups.bind-addr}</td><td>{@code 127.0.0.1}</td><td>address to bind to</td></tr>
 *   <tr><td>{@code dlock.jgroups.port}</td><td>{@code 7800}</td><td>first TCP port to try, 1 to 65535</td></tr>
 *   <tr><td>{@code dlock.jgroups.port-range}</td><td>{@code 10}</td><td>further ports tried when binding and
 *       probed by discovery, 0 to 1000</td></tr>
 *   <tr><td>{@code dlock.jgroups.initial-hosts}</td><td>{@code <bind-addr>[<port>]}</td><td>members to contact
 *       when joining, {@code host[port],host[port],...}</td></tr>
 *   <tr><td>{@code dlock.jgroups.keystore}</td><td></td><td>secure stack: keystore file (PKCS12 or JCEKS) holding
 *       the cluster's AES key</td></tr>
 *   <tr><td>{@code dlock.jgroups.keystore-password}</td><td></td><td>secure stack: password of the keystore and of
 *       the key</td></tr>
 *   <tr><td>{@code dlock.jgroups.key-alias}</td><td>{@code dlock}</td><td>secure stack: alias of the key</td></tr>
 *   <tr><td>{@code dlock.jgroups.join-timeout-ms}</td><td>{@code 30000}</td><td>how long joining, and then waiting
 *       for a primary view (see {@code dlock.cluster.size}), may take before start fails, 1000 to 600000</td></tr>
 * </table>
 *
 * <h2>Failure detection</h2>
 * The TCP stacks detect a crashed member in three steps: FD_SOCK2 (a dead process closes its socket, so
 * its neighbour suspects it at once; a hung one is caught by) FD_ALL3 (heartbeat every 0.5 s, suspected
 * after 4 s of silence on {@code default}, 5 s on {@code tcp} and {@code secure}), then VERIFY_SUSPECT2 (the
 * suspect must answer within 0.5 s, 1 s; the check runs once per timeout, so it takes up to twice that) before
 * GMS installs a view without it. A {@code kill -9} thus leaves the view in about 1-2 s, a hung or cut-off
 * process 4.5-5.5 s ({@code default}) or 6-7.5 s ({@code tcp}, {@code secure}) after its last message. Change
 * the timeouts with the system properties {@code jgroups.fd_all3.timeout}, {@code jgroups.fd_all3.interval} and
 * {@code jgroups.verify_suspect.timeout} (e.g. {@code -Djgroups.fd_all3.timeout=10s}), or copy a stack
 * file and name the copy in {@code dlock.jgroups.stack}. The {@code loopback} stack has no failure
 * detection: members leave by closing.
 *
 * <p>A member that the others excluded while it went on believing itself a member (JGroups tells an excluded
 * member nothing) is noticed by dlock's epoch lease: nobody answers its probes. It then leaves its stale view
 * for one of its own, and MERGE3 merges it back ({@link JGroupsTransport#viewLooksStale}).
 */
public final class JGroupsTransportFactory implements TransportFactory {

    /** The transport's configuration name. */
    public static final String NAME = "jgroups";
    /** The built-in stack names. */
    public static final List<String> BUILT_IN_STACKS = List.of("default", "tcp", "secure", "loopback");

    /** Key of the JGroups stack: a built-in name or a stack file. */
    public static final String STACK = "dlock.jgroups.stack";
    /** Key of the JGroups bind address. */
    public static final String BIND_ADDR = "dlock.jgroups.bind-addr";
    /** Key of the first JGroups TCP port. */
    public static final String PORT = "dlock.jgroups.port";
    /** Key of the number of further JGroups ports tried and probed. */
    public static final String PORT_RANGE = "dlock.jgroups.port-range";
    /** Key of the JGroups initial hosts, {@code host[port],...}. */
    public static final String INITIAL_HOSTS = "dlock.jgroups.initial-hosts";
    /** Key of the keystore of the JGroups secure stack. */
    public static final String KEYSTORE = "dlock.jgroups.keystore";
    /** Key of the password of that keystore. */
    public static final String KEYSTORE_PASSWORD = "dlock.jgroups.keystore-password";
    /** Key of the alias of the cluster key in that keystore. */
    public static final String KEY_ALIAS = "dlock.jgroups.key-alias";
    /** Key of the bound on joining a JGroups cluster. */
    public static final String JOIN_TIMEOUT_MS = "dlock.jgroups.join-timeout-ms";

    private static final String PREFIX = "dlock." + NAME + ".";
    private static final Set<String> SETTINGS = Set.of(STACK, BIND_ADDR, PORT, PORT_RANGE, INITIAL_HOSTS, KEYSTORE,
            KEYSTORE_PASSWORD, KEY_ALIAS, JOIN_TIMEOUT_MS).stream()
            .map(JGroupsTransportFactory::setting).collect(Collectors.toUnmodifiableSet());
    private static final Pattern HOST_LIST =
            Pattern.compile("[A-Za-z0-9.:_-]+\\[[0-9]{1,5}\\](,[A-Za-z0-9.:_-]+\\[[0-9]{1,5}\\])*");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(dlock\\.jgroups\\.[a-z-]+)}");

    /** The factory; {@link java.util.ServiceLoader} makes it. */
    public JGroupsTransportFactory() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** {@code key} without the prefix {@code dlock.jgroups.}: the name {@link #validateSettings} sees. */
    private static String setting(String key) {
        return key.substring(PREFIX.length());
    }

    @Override
    public Set<String> settingKeys() {
        return SETTINGS;
    }

    /** Checks what can be checked without the network: non-empty names, port ranges, the host list. */
    @Override
    public void validateSettings(ProtocolOptions settings) {
        for (String key : new String[] {STACK, BIND_ADDR, KEYSTORE, KEY_ALIAS}) {
            String setting = setting(key);
            String value = settings.get(setting);
            if (value != null && value.isBlank()) {
                throw new IllegalArgumentException("option " + setting + "=" + value
                        + " is empty; allowed: a non-empty value");
            }
        }
        settings.getLong(setting(PORT), 7800, 1, 65_535);
        settings.getLong(setting(PORT_RANGE), 10, 0, 1_000);
        settings.getLong(setting(JOIN_TIMEOUT_MS), 30_000, 1_000, 600_000);
        String hosts = settings.get(setting(INITIAL_HOSTS));
        if (hosts != null && !HOST_LIST.matcher(hosts.replace(" ", "")).matches()) {
            throw new IllegalArgumentException("option " + setting(INITIAL_HOSTS) + "=" + hosts
                    + " is not allowed; allowed: host[port] separated by commas, e.g. 10.0.0.1[7800],10.0.0.2[7800]");
        }
    }

    @Override
    public Transport create(DlockConfig config) {
        return newTransport(config);
    }

    /**
     * A transport for {@code config}, typed as {@link JGroupsTransport} (for code that needs its channel's
     * details, such as a benchmark's floor).
     *
     * @throws DlockConfigException if the stack cannot be found or lacks a setting it needs
     */
    public static JGroupsTransport newTransport(DlockConfig config) {
        Map<String, String> v = config.values();
        String stack = v.getOrDefault(STACK, "default");
        String xml = substitute(readStack(stack), settings(config, stack));
        long joinMs = Long.parseLong(v.getOrDefault(JOIN_TIMEOUT_MS, "30000"));
        return new JGroupsTransport(config.cluster(), stack, xml.getBytes(StandardCharsets.UTF_8), config.nodeId(),
                Duration.ofMillis(joinMs));
    }

    /** The placeholder values for {@code stack}; checks that the stack's required settings are present. */
    static Map<String, String> settings(DlockConfig config, String stack) {
        Map<String, String> v = config.values();
        String bind = v.getOrDefault(BIND_ADDR, "127.0.0.1");
        String port = v.getOrDefault(PORT, "7800");
        if (stack.equals("tcp") && !v.containsKey(INITIAL_HOSTS)) {
            throw new DlockConfigException(STACK + "=tcp needs " + INITIAL_HOSTS
                    + " (host[port],host[port],... of the cluster's members), and normally " + BIND_ADDR);
        }
        Map<String, String> s = new LinkedHashMap<>();
        s.put(BIND_ADDR, bind);
        s.put(PORT, port);
        s.put(PORT_RANGE, v.getOrDefault(PORT_RANGE, "10"));
        s.put(INITIAL_HOSTS,
                v.getOrDefault(INITIAL_HOSTS, bind + "[" + port + "]").replace(" ", ""));
        s.put(KEY_ALIAS, v.getOrDefault(KEY_ALIAS, "dlock"));
        String keystore = v.get(KEYSTORE);
        String password = v.get(KEYSTORE_PASSWORD);
        if (stack.equals("secure")) {
            if (keystore == null || password == null) {
                throw new DlockConfigException(STACK + "=secure needs " + KEYSTORE
                        + " (a PKCS12 or JCEKS file holding the cluster's AES key) and "
                        + KEYSTORE_PASSWORD);
            }
            if (!Files.isReadable(Path.of(keystore))) {
                throw new DlockConfigException(KEYSTORE + "=" + keystore + ": no such readable file");
            }
        }
        if (keystore != null) {
            s.put(KEYSTORE, Path.of(keystore).toAbsolutePath().toString());
            s.put("dlock.jgroups.keystore-type", keystore.toLowerCase(java.util.Locale.ROOT).endsWith(".jceks")
                    ? "JCEKS" : "PKCS12");
        }
        if (password != null) {
            s.put(KEYSTORE_PASSWORD, password);
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
                throw new DlockConfigException(STACK + "=" + stack + " is not allowed; allowed: "
                        + String.join(", ", BUILT_IN_STACKS) + ", or a stack file or class-path resource ending in .xml");
            }
            Path file = Path.of(stack);
            if (Files.isRegularFile(file)) {
                return Files.readString(file, StandardCharsets.UTF_8);
            }
            InputStream in = Thread.currentThread().getContextClassLoader() == null ? null
                    : Thread.currentThread().getContextClassLoader().getResourceAsStream(stack);
            if (in == null) {
                throw new DlockConfigException(STACK + "=" + stack
                        + ": no such file or class-path resource");
            }
            return readResource(in, stack);
        } catch (IOException e) {
            throw new DlockConfigException(STACK + "=" + stack + " cannot be read: " + e.getMessage());
        }
    }

    private static String readResource(InputStream in, String stack) throws IOException {
        if (in == null) {
            throw new DlockConfigException(STACK + "=" + stack + ": built-in stack missing from the jar");
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
