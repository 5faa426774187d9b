package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.ElectionAlgorithm;
import io.dlock.MutexAlgorithm;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code dlock report}: one self-contained HTML file with one chart per family and per ring, and the tables. */
@Timeout(120)
class ReportCommandTest {

    private static final Pattern FIGURE = Pattern.compile(
            "<figure class=\"chart\" data-(family|ring)=\"([a-z-]+)\"><img alt=\"[^\"]*\" width=\"(\\d+)\" height=\"(\\d+)\" "
                    + "src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\">");

    /** The report holds one decodable PNG chart per family of the registered algorithms, one per ring order, and both tables. */
    @Test
    void report_chartsPerFamilyAndTables(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("sub/report.html");
        Run r = Run.dlock("report", "--out", out.toString(), "--nodes", "2..8", "--election-nodes", "4..16",
                "--entries", "16", "--seed", "3");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("checker ok in every run"), r::toString);
        String html = Files.readString(out, StandardCharsets.UTF_8);
        assertFalse(html.contains("http://") || html.contains("https://") || html.contains("<script"),
                "the report must need no network and no script");

        List<String> families = new ArrayList<>();
        List<String> rings = new ArrayList<>();
        Matcher m = FIGURE.matcher(html);
        while (m.find()) {
            (m.group(1).equals("family") ? families : rings).add(m.group(2));
            BufferedImage png = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(m.group(5))));
            assertNotNull(png, "chart " + m.group(2) + " is not a PNG");
            assertEquals(Integer.parseInt(m.group(3)), png.getWidth());
            assertEquals(Integer.parseInt(m.group(4)), png.getHeight());
            assertTrue(png.getWidth() >= 800 && png.getHeight() >= 400, "chart " + m.group(2) + " too small");
        }
        List<String> expected = ReportCommand.groupsOf(Arrays.asList(MutexAlgorithm.values())).stream()
                .map(ReportCommand.ChartGroup::id).toList();
        assertEquals(List.of("permission", "token", "quorum-and-other"), expected);
        assertEquals(expected, families, "one chart per family, in order");
        assertEquals(List.of("increasing", "decreasing", "random"), rings);

        for (MutexAlgorithm a : MutexAlgorithm.values()) {
            assertTrue(html.contains("<tr data-algorithm=\"" + a.configName() + "\">"), "mutex table row " + a);
        }
        for (ElectionAlgorithm a : ElectionAlgorithm.messagePassing()) {
            assertTrue(html.contains("<tr data-algorithm=\"" + a.configName() + "\">"), "election table row " + a);
        }
        assertTrue(html.contains("<table id=\"mutex-summary\">") && html.contains("<table id=\"election-summary\">"));
        assertFalse(html.contains("not documented yet"), "every algorithm has its notes");
        assertFalse(html.contains("runs failed"), "the checker found nothing");
    }

    /** Every registered algorithm has its assumptions and fault tolerance in algorithm-notes.properties. */
    @Test
    void notes_coverEveryRegisteredAlgorithm() {
        Properties notes = ReportCommand.notes();
        for (MutexAlgorithm a : MutexAlgorithm.values()) {
            assertNotNull(notes.getProperty(a.configName() + ".assumptions"), a.configName());
            assertNotNull(notes.getProperty(a.configName() + ".fault-tolerance"), a.configName());
        }
        for (ElectionAlgorithm a : ElectionAlgorithm.values()) {
            assertNotNull(notes.getProperty(a.configName() + ".assumptions"), a.configName());
            assertNotNull(notes.getProperty(a.configName() + ".fault-tolerance"), a.configName());
        }
    }
}
