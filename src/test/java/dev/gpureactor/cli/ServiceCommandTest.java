package dev.gpureactor.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code gar service} in process, as {@code main} runs it: a quick run writes its table, JSON and plot; bad options exit 2. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServiceCommandTest {
    @Test
    void a_quick_run_writes_the_table_the_json_and_the_plot(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("service.json"), svg = dir.resolve("out/service.svg");
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "service", "--quick", "--modes", "reactor,watcher:interval=25us,watcher", "--warmup", "0.3s",
                "--window", "1s", "--json", json.toString(), "--plot", svg.toString(), "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Goals for reactor"), r.out());
        assertTrue(r.out().contains("p50 vs best watcher"), "the p50 is also judged against the best watcher that ran: " + r.out());
        assertTrue(r.out().contains("The parkers' CPU by phase"), "the reactor mode's parkers by phase: " + r.out());
        assertTrue(r.out().contains("Correctness: PASS"), r.out());
        String j = Files.readString(json, StandardCharsets.UTF_8);
        assertTrue(j.startsWith("{") && j.contains("\"correct\":true") && j.contains("\"judged_mode\":\"reactor\""), j);
        assertTrue(j.contains("\"parker_phases\":{\"turn_cores\":"), "the reactor's phases in the JSON: " + j);
        assertTrue(j.contains("\"fates\":true") && j.contains("\"fate_every\":40") && j.contains("\"timed_out\":")
                && j.contains("\"contract_breaches\":0") && j.contains("\"interval_us\":25.0"), "the settings and the fates' counts: " + j);
        assertTrue(r.out().contains("Ratios against the 100 us watcher, watcher "), r.out());
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        assertEquals("svg", doc.getDocumentElement().getTagName());
        var gs = doc.getElementsByTagName("g");
        int points = 0;
        for (int i = 0; i < gs.getLength(); i++) if (((org.w3c.dom.Element) gs.item(i)).getAttribute("class").equals("point")) points++;
        assertEquals(6, points, "one level: a point per mode in each of the two panels");
    }

    @Test
    void no_fates_turns_them_off() throws Exception {
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "service", "--quick", "--no-fates", "--modes", "watcher", "--warmup", "0.2s",
                "--window", "0.5s", "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Correctness: PASS") && !r.out().contains("Fates ("), r.out());
    }

    @Test
    void bad_options_exit_2_with_a_reason() {
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "service", "--modes", "reactor,spin", "--quiet");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown mode") || r.out().contains("unknown mode"), r.out() + r.err());
    }
}
