package dev.gpureactor.bench;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The bench report's outputs, on a made-up run (no timing is measured here): the SVG is
 * well-formed XML with one point per cell, the JSON parses and holds what the run holds, and the
 * goals are judged from the cells' ratios as stated.
 */
class BenchOutputTest {
    static Cell cell(Strategy s, long waitNanos, long p50, long p99, double cpu) {
        return new Cell(s, waitNanos, 100, p50, p99, p99 * 2, p99 * 3, waitNanos + 80_000, cpu,
                Map.of("gar-parker-line-", cpu / 2, "quote\"and\\slash", 0.001), s == Strategy.SLEEP_POLL ? "waits jittered +-500us" : "");
    }

    static BenchRun run(List<Cell> cells, Optional<ManyResult> many) {
        Knobs knobs = new Knobs(OptionalLong.of(50_000), OptionalLong.of(150), OptionalInt.empty());
        return new BenchRun("2026-12-02T18:00:00Z", "AMD EPYC <test> & co, 2 cores", "JDK \"25\"", "1.00 0.50 0.20 at start",
                knobs, Jitter.POLLERS, DeviceTiming.RANDOM, 1.6, cells, many, Goals.evaluate(cells, many));
    }

    static List<Cell> sample() {
        List<Cell> cells = new ArrayList<>();
        for (long w : new long[] {100_000, 1_000_000, 10_000_000}) {
            cells.add(cell(Strategy.REACTOR, w, 4_000, 30_000, 0.05));
            cells.add(cell(Strategy.REACTOR_JDK, w, 20_000, 60_000, 0.06));
            cells.add(cell(Strategy.BUSY_SPIN, w, 500, 2_000, 1.0));
            cells.add(cell(Strategy.SLEEP_POLL, w, 600_000, 1_100_000, 0.05));
            cells.add(cell(Strategy.CPU_NOTIFY, w, 8_000, 40_000, 0.0));
        }
        return cells;
    }

    @Test
    void the_svg_is_well_formed_xml_with_a_point_per_cell_and_a_legend_entry_per_strategy() throws Exception {
        List<Cell> cells = sample();
        String svg = SvgPlot.render(run(cells, Optional.empty()));
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        Element root = doc.getDocumentElement();
        assertEquals("svg", root.getLocalName());
        assertEquals("http://www.w3.org/2000/svg", root.getNamespaceURI());
        NodeList titles = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "title");
        assertEquals(cells.size(), titles.getLength(), "one tooltip-titled point per cell");
        String text = root.getTextContent();
        for (Strategy s : List.of(Strategy.REACTOR, Strategy.REACTOR_JDK, Strategy.BUSY_SPIN, Strategy.SLEEP_POLL, Strategy.CPU_NOTIFY)) {
            assertTrue(text.contains(s.label()), "legend names " + s.label());
        }
        assertTrue(text.contains("AMD EPYC <test> & co"), "text with markup characters survives escaping");
        assertTrue(text.contains("100us") && text.contains("1ms") && text.contains("10ms"), "wait lengths in the legend");
    }

    @Test
    void the_svg_of_a_run_with_zero_cpu_and_no_cells_is_still_well_formed() throws Exception {
        for (List<Cell> cells : List.of(List.<Cell>of(), List.of(cell(Strategy.CPU_NOTIFY, 1_000_000, 0, 0, 0)))) {
            String svg = SvgPlot.render(run(cells, Optional.empty()));
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
            assertEquals("svg", doc.getDocumentElement().getTagName());
            assertFalse(svg.contains("NaN") || svg.contains("Infinity"), svg);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void the_json_parses_and_holds_the_cells_the_many_futures_run_and_the_goals() {
        List<Cell> cells = sample();
        ManyResult many = new ManyResult(100_000, 4, 650, 410.5, 780, 128_000, 0);
        BenchRun r = run(cells, Optional.of(many));
        Map<String, Object> json = (Map<String, Object>) new MiniJson(r.json()).parse();
        assertEquals("JDK \"25\"", json.get("jdk"));
        assertEquals("pollers", json.get("jitter"));
        assertEquals("random", json.get("device"));
        assertEquals("parkSpin=50us margin=150us", json.get("knobs"));
        List<Object> jc = (List<Object>) json.get("cells");
        assertEquals(cells.size(), jc.size());
        Map<String, Object> first = (Map<String, Object>) jc.get(0);
        assertEquals("reactor", first.get("strategy"));
        assertEquals(100_000.0, first.get("waitNanos"));
        assertEquals(4_000.0, first.get("p50Nanos"));
        assertEquals(0.05, (Double) first.get("cpuCores"), 1e-12);
        assertEquals(0.001, (Double) ((Map<String, Object>) first.get("cpuByThreads")).get("quote\"and\\slash"), 1e-12);
        Map<String, Object> m = (Map<String, Object>) json.get("many");
        assertEquals(410.5, m.get("bytesPerFuture"));
        List<Object> goals = (List<Object>) json.get("goals");
        assertEquals(r.goals().size(), goals.size());
        for (int i = 0; i < goals.size(); i++) {
            assertEquals(r.goals().get(i).pass(), ((Map<String, Object>) goals.get(i)).get("pass"));
        }
    }

    /**
     * The exact text of the report's JSON, pinned: numbers with six significant digits, trailing
     * zeros dropped, never in exponent form; non-finite numbers as null; control characters
     * escaped. (One entry per cpuByThreads map: a Cell keeps an unordered copy.)
     */
    @Test
    void the_json_text_is_pinned() {
        List<Cell> cells = List.of(
                new Cell(Strategy.REACTOR, 1_000_000, 7, 4_000, 30_000, 60_000, 90_000, 1_000_080.5, 0.123456789,
                        Map.of("gar-parker-line-0", 1.234567e-7), "tab\there \"q\" \\ \u0001 \n"),
                new Cell(Strategy.BUSY_SPIN, 1_000_000, 7, 500, 2_000, 4_000, 6_000, 1_000_001, Double.NaN,
                        Map.of("big", 123456789.0), ""),
                new Cell(Strategy.CPU_NOTIFY, 1_000_000, 7, 8_000, 40_000, 80_000, 120_000, 1_000_000, 100_000.0,
                        Map.of("inf", Double.POSITIVE_INFINITY), ""));
        ManyResult many = new ManyResult(100_000, 4, 650.0, 410.5, 0.000123456789, 1.0e12, 0);
        assertEquals(PINNED, run(cells, Optional.of(many)).json());
    }

    static final String PINNED =
            "{\"date\":\"2026-12-02T18:00:00Z\",\"machine\":\"AMD EPYC <test> & co, 2 cores\",\"jdk\":\"JDK \\\"25\\\"\",\"load\":\"1.00 0.50 0.20 at start\",\"knobs\":\"parkSpin=50us margin=150us\",\"jitter\":\"pollers\",\"device\":\"random\",\"cellSeconds\":1.6,\"cells\":[{\"strategy\":\"reactor\",\"label\":\"gpu-reactor flag+predict (default)\",\"waitNanos\":1000000,\"waits\":7,\"p50Nanos\":4000,\"p99Nanos\":30000,\"p999Nanos\":60000,\"maxNanos\":90000,\"meanWaitNanos\":1000080,\"cpuCores\":0.123457,\"note\":\"tab\\there \\\"q\\\" \\\\ \\u0001 \\n\",\"cpuByThreads\":{\"gar-parker-line-0\":0.000000123457}},"
            + "{\"strategy\":\"busy-spin\",\"label\":\"busy spin (platform thread)\",\"waitNanos\":1000000,\"waits\":7,\"p50Nanos\":500,\"p99Nanos\":2000,\"p999Nanos\":4000,\"maxNanos\":6000,\"meanWaitNanos\":1000000,\"cpuCores\":null,\"note\":\"\",\"cpuByThreads\":{\"big\":123457000}},"
            + "{\"strategy\":\"cpu-notify\",\"label\":\"blocking-sync (CPU notify)\",\"waitNanos\":1000000,\"waits\":7,\"p50Nanos\":8000,\"p99Nanos\":40000,\"p999Nanos\":80000,\"maxNanos\":120000,\"meanWaitNanos\":1000000,\"cpuCores\":100000,\"note\":\"\",\"cpuByThreads\":{\"inf\":null}}],"
            + "\"many\":{\"futures\":100000,\"lines\":4,\"bytesPerVirtualThread\":650,\"bytesPerFuture\":410.5,\"wakeAllMillis\":0.000123457,\"completionsPerSecond\":1000000000000,\"registrationsLeft\":0},\"goals\":[{\"id\":\"floor-10x\",\"claim\":\"wake p50 at most 10x the busy-spin floor (ours / floor)\",\"at\":\"1ms\",\"value\":8,\"unit\":\"x\",\"limit\":10,\"atMost\":true,\"pass\":true,\"evidence\":\"4.0 us / 0.5 us\"},"
            + "{\"id\":\"cpu-0.15\",\"claim\":\"waiting CPU at most 0.15 cores per line (deadline plan)\",\"at\":\"1ms\",\"value\":0.123457,\"unit\":\"cores\",\"limit\":0.15,\"atMost\":true,\"pass\":true,\"evidence\":\"0.123 cores\"},"
            + "{\"id\":\"cpu-6x\",\"claim\":\"waiting CPU at least 6x less than busy spin (theirs / ours)\",\"at\":\"1ms\",\"value\":null,\"unit\":\"x\",\"limit\":6,\"atMost\":false,\"pass\":false,\"evidence\":\"NaN / 0.123 cores\"},"
            + "{\"id\":\"p50-50us\",\"claim\":\"meanwhile wake p50 within 50 us of the completion\",\"at\":\"1ms\",\"value\":4,\"unit\":\"us\",\"limit\":50,\"atMost\":true,\"pass\":true,\"evidence\":\"4.0 us\"},"
            + "{\"id\":\"heap-1KiB\",\"claim\":\"heap per waiting future beyond its virtual thread under 1 KiB\",\"at\":\"100000 futures\",\"value\":410.5,\"unit\":\"B\",\"limit\":1024,\"atMost\":true,\"pass\":true,\"evidence\":\"MemoryMXBean after GC; a plainly parked virtual thread: 650 B\"}]}";

    @Test
    void goals_are_judged_on_the_ratios_of_the_same_run() {
        List<Goal> goals = Goals.evaluate(sample(), Optional.of(new ManyResult(100_000, 4, 650, 1500, 780, 128_000, 0)));
        Map<String, Goal> at1ms = new LinkedHashMap<>();
        for (Goal g : goals) if (g.at().equals("1ms")) at1ms.put(g.id(), g);
        assertEquals(8.0, at1ms.get("floor-10x").value(), 1e-9); // 4000 / 500
        assertTrue(at1ms.get("floor-10x").pass());
        assertEquals(5.0, at1ms.get("jdk-4x").value(), 1e-9); // 20000 / 4000
        assertTrue(at1ms.get("jdk-4x").pass());
        assertEquals(150.0, at1ms.get("sleep-20x").value(), 1e-9);
        assertEquals(0.05, at1ms.get("cpu-0.15").value(), 1e-12);
        assertEquals(20.0, at1ms.get("cpu-6x").value(), 1e-9);
        assertTrue(at1ms.get("p50-50us").pass());
        assertFalse(goals.stream().anyMatch(g -> g.at().equals("100us") && g.id().startsWith("cpu")),
                "the CPU goals are for waits of 1 ms and more");
        Goal heap = goals.stream().filter(g -> g.id().equals("heap-1KiB")).findFirst().orElseThrow();
        assertFalse(heap.pass());
        assertEquals(1500 / 1024.0, heap.missFactor(), 1e-9);
        assertFalse(run(sample(), Optional.empty()).table().contains("heap-1KiB"), "no many-futures run, no heap goal");
    }

    @Test
    void a_goal_whose_strategies_did_not_run_is_left_out_not_passed() {
        List<Goal> goals = Goals.evaluate(List.of(cell(Strategy.REACTOR, 1_000_000, 4_000, 30_000, 0.05)), Optional.empty());
        assertEquals(List.of("cpu-0.15", "p50-50us"), goals.stream().map(Goal::id).toList());
        assertTrue(Goals.evaluate(List.of(cell(Strategy.BUSY_SPIN, 1_000_000, 500, 900, 1)), Optional.empty()).isEmpty());
    }

    /** Just enough of a JSON reader to check the writer: objects, arrays, strings with escapes, numbers, booleans, null. */
    static final class MiniJson {
        private final String s;
        private int i;

        MiniJson(String s) { this.s = s; }

        Object parse() {
            Object v = value();
            ws();
            if (i != s.length()) throw new IllegalArgumentException("trailing text at " + i);
            return v;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') return object();
            if (c == '[') return array();
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return true; }
            if (s.startsWith("false", i)) { i += 5; return false; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            if (start == i) throw new IllegalArgumentException("unexpected '" + c + "' at " + i);
            return Double.parseDouble(s.substring(start, i));
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            i++;
            ws();
            if (s.charAt(i) == '}') { i++; return m; }
            while (true) {
                ws();
                String k = string();
                ws();
                expect(':');
                if (m.put(k, value()) != null) throw new IllegalArgumentException("duplicate key " + k);
                ws();
                if (s.charAt(i) == ',') { i++; continue; }
                expect('}');
                return m;
            }
        }

        private List<Object> array() {
            List<Object> a = new ArrayList<>();
            i++;
            ws();
            if (s.charAt(i) == ']') { i++; return a; }
            while (true) {
                a.add(value());
                ws();
                if (s.charAt(i) == ',') { i++; continue; }
                expect(']');
                return a;
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c < 0x20) throw new IllegalArgumentException("raw control character at " + (i - 1));
                if (c != '\\') { b.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                    default -> throw new IllegalArgumentException("bad escape \\" + e);
                }
            }
        }

        private void expect(char c) {
            if (s.charAt(i) != c) throw new IllegalArgumentException("expected '" + c + "' at " + i + ", got '" + s.charAt(i) + "'");
            i++;
        }
    }
}
