package io.dlock.samples;

import io.dlock.ElectionAlgorithm;
import io.dlock.MutexAlgorithm;
import io.dlock.MutexVariant;
import io.dlock.inmemory.sim.ElectionSimulation.RingOrder;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolFamily;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dlock report}: runs the sweep of every mutual-exclusion algorithm and the elections on the
 * simulator, and writes one self-contained HTML file: one chart per algorithm family (messages per
 * entry against N, measured points beside the formula's curve), one chart per ring order for the
 * elections, and summary tables (assumptions, formula, synchronization delay, fault tolerance). The
 * charts are XChart PNGs embedded as base64 {@code data:} URIs, so the file needs no network and no
 * other file to be viewed.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the sweep and the elections on the simulator and write one self-contained HTML report "
                + "(charts embedded, no network needed to view it)."})
final class ReportCommand extends DlockCommand {

    /** The chart groups of the mutual-exclusion algorithms, by their definitions' family. */
    enum ChartGroup {
        /** Permission from every other node. */
        PERMISSION("Permission-based: a requester asks every other node"),
        /** Token-based. */
        TOKEN("Token-based: whoever holds the unique token enters"),
        /** Quorum-based, and the central coordinator. */
        QUORUM_AND_OTHER("Quorum-based and central: permission from a subset (one coordinator, a quorum, a majority)");

        final String title;

        ChartGroup(String title) {
            this.title = title;
        }

        /** The group of a family. */
        static ChartGroup of(ProtocolFamily family) {
            switch (family) {
                case PERMISSION:
                    return PERMISSION;
                case TOKEN:
                    return TOKEN;
                default:
                    return QUORUM_AND_OTHER;
            }
        }

        String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0x9467bd), new Color(0xff7f0e), new Color(0x17becf), new Color(0x8c564b), new Color(0xe377c2),
        new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x393b79), new Color(0x637939)};

    /** Markers cycle too, so that series with equal values (ctta and suzuki-kasami: N) stay visible. */
    private static final org.knowm.xchart.style.markers.Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND,
        SeriesMarkers.SQUARE, SeriesMarkers.TRIANGLE_UP, SeriesMarkers.CROSS, SeriesMarkers.TRIANGLE_DOWN,
        SeriesMarkers.PLUS};

    @Option(names = "--out", defaultValue = "report.html", paramLabel = "FILE",
            description = "the HTML file to write (default ${DEFAULT-VALUE})")
    Path out;

    @Mixin
    SweepNodesOption nodes;

    @Option(names = "--election-nodes", defaultValue = "4..256", paramLabel = "SPEC", converter = NodeCounts.ElectionRange.class,
            description = "ring sizes n of the elections (default ${DEFAULT-VALUE})")
    NodeCounts electionNodes;

    @Mixin
    MutexRunOptions runs;

    @Override
    public Integer call() throws IOException {
        long entries = runs.entries();
        long seed = runs.seed();
        List<Integer> ns = nodes.nodes.counts();
        List<Integer> electionNs = electionNodes.counts();
        List<MutexVariant> chosen = runs.chosen();
        System.setProperty("java.awt.headless", "true");
        List<ElectionAlgorithm> elections = ElectionAlgorithm.messagePassing();
        List<Sweep.MutexPoint> points = new ArrayList<>();
        List<Sweep.ElectionPoint> electionPoints = new ArrayList<>();
        long steps = (long) chosen.size() * ns.size() + (long) elections.size() * RingOrder.values().length * electionNs.size();
        try (Progress progress = Progress.of("report", steps, true)) {
            for (MutexVariant variant : chosen) {
                for (int n : ns) {
                    progress.doing(variant.name() + " N=" + n);
                    points.add(Sweep.mutex(variant, n, Sweep.perNode(entries, n), seed));
                    progress.step();
                }
            }
            for (ElectionAlgorithm a : elections) {
                for (RingOrder ring : RingOrder.values()) {
                    for (int n : electionNs) {
                        progress.doing(a.configName() + " " + ring.name().toLowerCase(Locale.ROOT) + " n=" + n);
                        electionPoints.add(Sweep.election(a, ring, n, seed));
                        progress.step();
                    }
                }
            }
        }
        String html = html(chosen, points, elections, electionPoints, entries, seed);
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(out, html, StandardCharsets.UTF_8);
        boolean ok = points.stream().allMatch(Sweep.MutexPoint::ok) && electionPoints.stream().allMatch(Sweep.ElectionPoint::ok);
        print(terminalSummary(chosen, ns, points, elections, electionNs, electionPoints)
                + String.format(Locale.ROOT, "wrote %s (open it in a browser: charts per family, per ring, and the "
                                + "summary tables): %d mutual-exclusion runs, %d elections%s%n",
                        out, points.size(), electionPoints.size(),
                        ok ? "; checker ok in every run" : "; THE CHECKER FOUND VIOLATIONS (see the tables)"));
        return ok ? 0 : 1;
    }

    /** The report's figures in brief, for the terminal: messages per entry by N, and the largest elections. */
    static String terminalSummary(List<MutexVariant> chosen, List<Integer> ns, List<Sweep.MutexPoint> points,
                                  List<ElectionAlgorithm> elections, List<Integer> electionNs,
                                  List<Sweep.ElectionPoint> electionPoints) {
        StringBuilder sb = new StringBuilder("Mutual exclusion, messages per entry by N (measured on the simulator):\n");
        sb.append(String.format(Locale.ROOT, "%-16s %-10s", "algorithm", "family"));
        for (int n : ns) {
            sb.append(String.format(Locale.ROOT, " %8s", "N=" + n));
        }
        sb.append("  formula\n");
        for (MutexVariant v : chosen) {
            MutexProtocolDefinition<?> d = AlgorithmDefinitions.mutex(v.algorithm());
            sb.append(String.format(Locale.ROOT, "%-16s %-10s", v.name(), d.family().name().toLowerCase(Locale.ROOT)));
            for (Sweep.MutexPoint p : points) {
                if (p.algorithm().equals(v.name())) {
                    sb.append(String.format(Locale.ROOT, " %8s", p.ok() ? String.format(Locale.ROOT, "%.2f",
                            p.messagesPerEntry()) : "FAILED"));
                }
            }
            sb.append("  ").append(d.messagesFormula()).append('\n');
        }
        int max = electionNs.get(electionNs.size() - 1);
        sb.append(String.format(Locale.ROOT, "%nLeader election, messages for n=%d, all nodes start "
                + "(increasing / decreasing / random ring):%n", max));
        for (ElectionAlgorithm a : elections) {
            String counts = electionPoints.stream().filter(p -> p.algorithm().equals(a.configName()) && p.nodes() == max)
                    .map(p -> p.ok() ? Long.toString(p.messages()) : "FAILED").collect(Collectors.joining(" / "));
            sb.append(String.format(Locale.ROOT, "%-16s %-26s %s%n", a.configName(), counts,
                    AlgorithmDefinitions.election(a).map(ElectionProtocolDefinition::messagesFormula).orElse("")));
        }
        return sb.append('\n').toString();
    }

    // ---------------------------------------------------------------- HTML

    private String html(List<MutexVariant> chosen, List<Sweep.MutexPoint> points, List<ElectionAlgorithm> elections,
                        List<Sweep.ElectionPoint> electionPoints, long entries, long seed) {
        Properties notes = notes();
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>dlock report</title>\n<style>\n")
                .append("body{font-family:sans-serif;max-width:1150px;margin:1em auto;padding:0 1em;color:#222}\n")
                .append("table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #bbb;padding:3px 6px;"
                        + "vertical-align:top;text-align:left}th{background:#eee}td.num{text-align:right}\n")
                .append("figure{margin:1.5em 0}figcaption{font-size:90%;color:#555}img{max-width:100%;border:1px solid #ddd}\n")
                .append(".bad{color:#b00;font-weight:bold}code{background:#f4f4f4}\n</style></head><body>\n");
        h.append("<h1>dlock: the algorithms on the simulator</h1>\n<p>Generated by <code>dlock report --nodes ")
                .append(esc(nodes.nodes.spec())).append(" --election-nodes ").append(esc(electionNodes.spec()))
                .append(" --entries ").append(entries).append(" --seed ").append(seed).append("</code>. Every run is deterministic: the same "
                        + "options give the same figures. Mutual exclusion: random message delays 1&ndash;10, channels "
                        + "reordered unless the algorithm needs FIFO, every node makes the same number of requests, the "
                        + "checker watches every event (one holder, increasing fencing tokens, no double grant, every "
                        + "request granted). Both axes are logarithmic.</p>\n");

        h.append("<h2>Mutual exclusion: messages per entry against N</h2>\n");
        h.append("<p>Markers: measured. Dashed line of the same colour: the definition's formula for an even load "
                + "(for an algorithm whose messages never stop, such as the token ring, the formula is the saturated "
                + "figure and idle circulation adds to it).</p>\n");
        Map<ChartGroup, List<MutexVariant>> groups = new EnumMap<>(ChartGroup.class);
        for (MutexVariant v : chosen) {
            groups.computeIfAbsent(ChartGroup.of(AlgorithmDefinitions.mutex(v.algorithm()).family()), g -> new ArrayList<>()).add(v);
        }
        for (Map.Entry<ChartGroup, List<MutexVariant>> g : groups.entrySet()) {
            XYChart chart = mutexChart(g.getKey(), g.getValue(), points);
            h.append("<figure class=\"chart\" data-family=\"").append(g.getKey().id()).append("\">")
                    .append(img(chart, g.getKey().title))
                    .append("<figcaption>").append(esc(g.getKey().title)).append(": ")
                    .append(esc(g.getValue().stream().map(MutexVariant::name).collect(Collectors.joining(", "))))
                    .append("</figcaption></figure>\n");
        }

        h.append("<h2>Leader election: messages against n</h2>\n<p>Every node starts at t = 0, every message takes one "
                + "time unit. Markers: measured; dashed line: docs/algorithms.md's exact count for that ring, where it gives one.</p>\n");
        for (RingOrder ring : RingOrder.values()) {
            String name = ring.name().toLowerCase(Locale.ROOT);
            XYChart chart = electionChart(ring, elections, electionPoints);
            h.append("<figure class=\"chart\" data-ring=\"").append(name).append("\">")
                    .append(img(chart, "elections on a " + name + " ring"))
                    .append("<figcaption>Ids ").append(name).append(" along the ring</figcaption></figure>\n");
        }

        h.append("<h2>Summary: mutual exclusion</h2>\n").append(mutexTable(chosen, points, notes));
        h.append("<h2>Summary: leader election</h2>\n").append(electionTable(elections, electionPoints, notes));
        h.append("<p>Fault tolerance is the algorithm's own (docs/algorithms.md Part F). On top of it, every dlock algorithm "
                + "re-establishes its state when the membership view changes (a node joins, leaves or crashes): token "
                + "algorithms run a census and regenerate a lost token, the others wait until every member has "
                + "announced its state; fencing tokens keep increasing across views. Only a view holding a majority of "
                + "the last primary view grants a lock or elects a leader, so a partition's minority waits; nodes that "
                + "leave cleanly are not counted against the majority. dlock's docs/operations.md has the faults each "
                + "algorithm survives and its recovery time, measured in the simulator and on JGroups.</p>\n"
                + "</body></html>\n");
        return h.toString();
    }

    private static String mutexTable(List<MutexVariant> chosen, List<Sweep.MutexPoint> points, Properties notes) {
        StringBuilder t = new StringBuilder("<table id=\"mutex-summary\"><tr><th>algorithm</th><th>family</th>"
                + "<th>messages per entry</th><th>sync delay</th><th>measured at largest N (formula)</th>"
                + "<th>checker</th><th>assumptions</th><th>fault tolerance</th></tr>\n");
        for (MutexVariant v : chosen) {
            MutexProtocolDefinition<?> d = AlgorithmDefinitions.mutex(v.algorithm());
            List<Sweep.MutexPoint> mine = points.stream().filter(p -> p.algorithm().equals(v.name())).toList();
            Sweep.MutexPoint last = mine.get(mine.size() - 1);
            long bad = mine.stream().filter(p -> !p.ok()).count();
            t.append("<tr data-algorithm=\"").append(esc(v.name())).append("\"><td><code>").append(esc(v.name()))
                    .append("</code></td><td>").append(d.family().name().toLowerCase(Locale.ROOT)).append("</td><td>")
                    .append(esc(d.messagesFormula())).append("</td><td>").append(syncDelay(d.expectedSyncDelay()))
                    .append("</td><td class=\"num\">N=").append(last.nodes()).append(": ")
                    .append(String.format(Locale.ROOT, "%.2f (%s%.2f)", last.messagesPerEntry(),
                            last.lowerBound() ? "&ge;" : "", last.theory()))
                    .append("</td><td>").append(bad == 0 ? "ok" : "<span class=\"bad\">" + bad + " runs failed</span>")
                    .append("</td><td>").append(esc((d.requiresFifo() ? "FIFO channels. " : "")
                            + note(notes, v.algorithm().configName(), "assumptions")))
                    .append("</td><td>").append(esc(note(notes, v.algorithm().configName(), "fault-tolerance")))
                    .append("</td></tr>\n");
        }
        return t.append("</table>\n").toString();
    }

    private static String electionTable(List<ElectionAlgorithm> elections, List<Sweep.ElectionPoint> points,
                                        Properties notes) {
        StringBuilder t = new StringBuilder("<table id=\"election-summary\"><tr><th>algorithm</th><th>topology</th>"
                + "<th>messages</th><th>measured at largest n: increasing / decreasing / random</th><th>checker</th>"
                + "<th>assumptions</th><th>fault tolerance</th></tr>\n");
        for (ElectionAlgorithm a : elections) {
            ElectionProtocolDefinition<?> d = AlgorithmDefinitions.election(a).orElseThrow();
            List<Sweep.ElectionPoint> mine = points.stream().filter(p -> p.algorithm().equals(a.configName())).toList();
            int max = mine.stream().mapToInt(Sweep.ElectionPoint::nodes).max().orElse(0);
            String measured = "n=" + max + ": " + mine.stream().filter(p -> p.nodes() == max)
                    .map(p -> Long.toString(p.messages())).collect(Collectors.joining(" / "));
            long bad = mine.stream().filter(p -> !p.ok()).count();
            t.append("<tr data-algorithm=\"").append(esc(a.configName())).append("\"><td><code>").append(esc(a.configName()))
                    .append("</code></td><td>").append(esc(d.topology().toString().toLowerCase(Locale.ROOT).replace('_', ' ')))
                    .append("</td><td>").append(esc(d.messagesFormula())).append("</td><td class=\"num\">").append(measured)
                    .append("</td><td>").append(bad == 0 ? "ok" : "<span class=\"bad\">" + bad + " runs failed</span>")
                    .append("</td><td>").append(esc((d.requiresFifo() ? "FIFO channels. " : "")
                            + note(notes, a.configName(), "assumptions")))
                    .append("</td><td>").append(esc(note(notes, a.configName(), "fault-tolerance"))).append("</td></tr>\n");
        }
        return t.append("</table>\n").toString();
    }

    private static String syncDelay(double t) {
        if (Double.isNaN(t)) {
            return "unbounded";
        }
        if (t == 1) {
            return "T";
        }
        return (t == Math.rint(t) ? Long.toString((long) t) : String.format(Locale.ROOT, "%.2f", t)) + "T";
    }

    /** The notes of the summary tables (docs/algorithms.md Part F), from {@code algorithm-notes.properties}. */
    static Properties notes() {
        Properties p = new Properties();
        try (InputStream in = ReportCommand.class.getResourceAsStream("algorithm-notes.properties")) {
            if (in == null) {
                throw new IllegalStateException("algorithm-notes.properties is missing from the class path");
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    private static String note(Properties notes, String algorithm, String key) {
        return notes.getProperty(algorithm + "." + key, "(not documented yet)");
    }

    // ---------------------------------------------------------------- charts

    private static XYChart mutexChart(ChartGroup group, List<MutexVariant> variants, List<Sweep.MutexPoint> points) {
        XYChart chart = chart(group.title, "N (nodes)", "messages per entry");
        int colour = 0;
        for (MutexVariant v : variants) {
            Color c = PALETTE[colour % PALETTE.length];
            org.knowm.xchart.style.markers.Marker marker = MARKERS[colour++ % MARKERS.length];
            List<Sweep.MutexPoint> mine = points.stream().filter(p -> p.algorithm().equals(v.name())).toList();
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (Sweep.MutexPoint p : mine) {
                if (p.messagesPerEntry() > 0) {
                    xs.add((double) p.nodes());
                    ys.add(p.messagesPerEntry());
                }
            }
            if (!xs.isEmpty()) {
                XYSeries s = chart.addSeries(v.name(), xs, ys);
                s.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
                s.setMarkerColor(c);
                s.setMarker(marker);
            }
            int min = mine.stream().mapToInt(Sweep.MutexPoint::nodes).min().orElse(2);
            int max = mine.stream().mapToInt(Sweep.MutexPoint::nodes).max().orElse(2);
            MutexProtocolDefinition<?> d = AlgorithmDefinitions.mutex(v.algorithm());
            List<Double> fx = new ArrayList<>();
            List<Double> fy = new ArrayList<>();
            for (int n : grid(min, max)) {
                double y = d.expectedMessagesPerEntry(n);
                if (y > 0 && !Double.isInfinite(y)) {
                    fx.add((double) n);
                    fy.add(y);
                }
            }
            if (fx.size() > 1) {
                XYSeries f = chart.addSeries(v.name() + " formula " + d.messagesFormula(), fx, fy);
                f.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Line);
                f.setMarker(SeriesMarkers.NONE);
                f.setLineColor(c);
                f.setLineStyle(SeriesLines.DASH_DASH);
                f.setShowInLegend(false);
            }
        }
        return chart;
    }

    private static XYChart electionChart(RingOrder ring, List<ElectionAlgorithm> elections,
                                         List<Sweep.ElectionPoint> points) {
        String name = ring.name().toLowerCase(Locale.ROOT);
        XYChart chart = chart("Elections, " + name + " ring, all nodes start", "n (nodes)", "messages");
        int colour = 0;
        for (ElectionAlgorithm a : elections) {
            Color c = PALETTE[colour % PALETTE.length];
            org.knowm.xchart.style.markers.Marker marker = MARKERS[colour++ % MARKERS.length];
            List<Sweep.ElectionPoint> mine = points.stream()
                    .filter(p -> p.algorithm().equals(a.configName()) && p.ring() == ring && p.messages() > 0).toList();
            if (mine.isEmpty()) {
                continue;
            }
            XYSeries s = chart.addSeries(a.configName(), mine.stream().map(p -> (double) p.nodes()).toList(),
                    mine.stream().map(p -> (double) p.messages()).toList());
            s.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarkerColor(c);
            s.setMarker(marker);
            List<Sweep.ElectionPoint> exact = mine.stream().filter(p -> p.expected() > 0).toList();
            if (exact.size() > 1) {
                XYSeries f = chart.addSeries(a.configName() + " formula", exact.stream().map(p -> (double) p.nodes()).toList(),
                        exact.stream().map(p -> (double) p.expected()).toList());
                f.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Line);
                f.setMarker(SeriesMarkers.NONE);
                f.setLineColor(c);
                f.setLineStyle(SeriesLines.DASH_DASH);
                f.setShowInLegend(false);
            }
        }
        return chart;
    }

    private static XYChart chart(String title, String x, String y) {
        XYChart chart = new XYChartBuilder().width(1000).height(560).title(title).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmicDecadeOnly(false); // N = 2, 4, 8 ... 64 lie within two decades: label them
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(10);
        chart.getStyler().setAxisTickMarksStroke(new BasicStroke(1f));
        chart.getStyler().setAntiAlias(true);
        return chart;
    }

    /** About eight points per doubling from {@code min} to {@code max}, integers, both ends included. */
    private static List<Integer> grid(int min, int max) {
        TreeSet<Integer> ns = new TreeSet<>();
        for (double n = min; n < max; n *= Math.pow(2, 1.0 / 8)) {
            ns.add((int) Math.round(n));
        }
        ns.add(max);
        return new ArrayList<>(ns);
    }

    private static String img(XYChart chart, String alt) {
        try {
            byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
            return "<img alt=\"" + esc(alt) + "\" width=\"" + chart.getWidth() + "\" height=\"" + chart.getHeight()
                    + "\" src=\"data:image/png;base64," + Base64.getEncoder().encodeToString(png) + "\">";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** For tests: the chart groups that {@code algorithms} fall into, in chart order. */
    static List<ChartGroup> groupsOf(List<MutexAlgorithm> algorithms) {
        Map<ChartGroup, Boolean> seen = new LinkedHashMap<>();
        new TreeSet<>(algorithms.stream().map(a -> ChartGroup.of(AlgorithmDefinitions.mutex(a).family())).toList())
                .forEach(g -> seen.put(g, true));
        return new ArrayList<>(seen.keySet());
    }
}
