package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The frontier plot: a valid SVG with one point per mode and client level in each of its two panels
 * (wake p50, wake p99), each placed by its CPU per request and its latency, the defaults drawn
 * larger and the 100 µs watcher ringed.
 */
class ServicePlotTest {
    private static final List<String> MODES = List.of("reactor", "reactor:parkSlice=100us", "watcher:interval=25us", "watcher");
    private static final List<Integer> LEVELS = List.of(16, 512);

    private static ServiceRun run() {
        ServiceBench.Settings s = new ServiceBench.Settings(Mode.parseList(String.join(",", MODES)), LEVELS, 1, Duration.ZERO,
                Duration.ZERO, Duration.ofSeconds(1), 1000, 2, 0, 1, true, Mode.BuilderHook.NONE);
        List<Cell> cells = new ArrayList<>();
        for (int li = 0; li < LEVELS.size(); li++) {
            for (int mi = 0; mi < MODES.size(); mi++) {
                double cpu = 40 + 10 * mi + li, p50 = 50 + 20 * mi + 5 * li, p99 = 500 + 1000 * mi + 100 * li;
                cells.add(new Cell(MODES.get(mi), LEVELS.get(li), 1, 1.0, 1000, 1000, new double[] {1000, 2000, 3000},
                        new double[] {p50, p50 * 2, p99}, cpu + 20, cpu, Map.of("carriers", 0.1), Map.of(), Map.of(), Map.of(),
                        new Ledger.Counts(1000, 1000, 0, 0, 0, 0, 0), new Fates.Counts(25, 8, 8, 8, 1, 16, 0, ""), 0, List.of(), List.of(), Double.NaN));
            }
        }
        return new ServiceRun(s, cells, List.of(), "test machine", "test jdk", "unknown");
    }

    @Test
    void one_labelled_point_per_mode_and_level_in_each_panel_placed_by_cpu_and_latency() throws Exception {
        String svg = ServicePlot.render(run());
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", doc.getDocumentElement().getTagName());
        List<Element> points = new ArrayList<>();
        NodeList gs = doc.getElementsByTagName("g");
        for (int i = 0; i < gs.getLength(); i++) {
            Element g = (Element) gs.item(i);
            if (g.getAttribute("class").equals("point")) points.add(g);
        }
        assertEquals(2 * MODES.size() * LEVELS.size(), points.size(), "two panels, a point per mode and level in each");
        Map<String, Integer> seen = new HashMap<>();
        for (Element p : points) {
            String title = p.getElementsByTagName("title").item(0).getTextContent();
            String key = title.substring(0, title.indexOf(':', title.indexOf(" clients")));
            seen.merge(key, 1, Integer::sum);
            String label = p.getElementsByTagName("text").item(0).getTextContent();
            String mode = key.substring(0, key.lastIndexOf(", "));
            assertEquals(String.valueOf(MODES.indexOf(mode) + 1), label, "a point is labelled with its mode's number: " + title);
        }
        for (String m : MODES) for (int n : LEVELS) assertEquals(2, seen.get(m + ", " + n + " clients"), m + " at " + n + ": " + seen);
        // Placement: in each panel more CPU lies further right and a longer wake higher up (smaller y).
        List<double[]> xy = new ArrayList<>();
        for (Element p : points.subList(0, MODES.size())) { // the p50 panel's level-16 points (circles; the baseline's ring first)
            NodeList cs = p.getElementsByTagName("circle");
            Element c = (Element) cs.item(cs.getLength() - 1);
            xy.add(new double[] {Double.parseDouble(c.getAttribute("cx")), Double.parseDouble(c.getAttribute("cy"))});
        }
        for (int i = 1; i < MODES.size(); i++) { // level 16: modes in order of rising CPU and rising p50
            assertTrue(xy.get(i)[0] > xy.get(i - 1)[0] && xy.get(i)[1] < xy.get(i - 1)[1], "point " + i + " right of and above " + (i - 1));
        }
        assertEquals(2 * LEVELS.size(), svg.split("stroke-dasharray=\"3,2\"", -1).length - 2, "the baseline's points are ringed (and the legend's ring)");
        assertTrue(svg.contains("server CPU per request"), "the x axis names its measure");
        assertTrue(svg.contains("1 reactor (defaults)") && svg.contains("4 watcher (baseline)"), "the legend names the defaults and the baseline");
    }
}
