package dev.gpureactor.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code gar scale} in process on tiny sizes: every measure reports its fields, every wait it
 * launched completed, and each goal is judged. No timing is asserted (the machine is shared).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScaleCommandTest {
    @Test
    void a_quick_run_reports_every_measure_and_completes_every_wait(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("scale.json");
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "scale", "--quick", "--lines", "1,2", "--warmup", "0.1s", "--window", "0.3s",
                "--idle-lines", "1,8", "--idle-window", "0.2s", "--fan-out", "100", "--fan-out-rounds", "2", "--waiters", "500",
                "--json", json.toString(), "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Goals of issue 19"), r.out());
        assertTrue(r.out().contains("Correctness: PASS"), r.out());
        String j = Files.readString(json, StandardCharsets.UTF_8);
        assertTrue(j.contains("\"correct\":true"), j);
        for (String field : new String[] {"many_lines", "waiting_cores_per_line", "parker_cores_per_line", "wake_p50_us", "wake_p99_us",
                "parker_threads", "idle_lines", "waiting_cpu_ms_per_s", "reactor_threads_cpu_ms_per_s", "fan_out", "last_running_p99_ms", "many_waiters",
                "bytes_per_future", "completions_per_s", "floor", "fan_out_p99_ms", "pinned_events", "pinned_where", "goals"}) {
            assertTrue(j.contains("\"" + field + "\":"), field + " missing: " + j);
        }
        // Every wait launched completed: issued == completed in each many-lines and idle cell and the fan-out.
        Matcher m = Pattern.compile("\"issued\":(\\d+),\"completed\":(\\d+)").matcher(j);
        int cells = 0;
        while (m.find()) {
            assertEquals(m.group(1), m.group(2), j);
            assertTrue(Long.parseLong(m.group(1)) > 0, j);
            cells++;
        }
        assertEquals(2 + 2 + 1, cells, "two many-lines cells, two idle cells, one fan-out: " + j);
        assertTrue(j.contains("\"issued\":200,\"completed\":200"), "fan-out: 100 waiters x 2 rounds: " + j);
        for (String goal : new String[] {"cpu-per-busy-line", "p50-vs-one-line", "threads-per-line", "idle-cpu", "fan-out-p99",
                "heap-per-future", "completions-per-s", "no-pinning"}) {
            assertTrue(j.contains("\"id\":\"" + goal + "\""), goal + " not judged: " + j);
        }
    }

    @Test
    void lines_per_parker_reaches_the_reactors_and_the_report(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("scale.json");
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "scale", "--quick", "--lines", "2", "--warmup", "0.3s", "--window", "0.5s",
                "--idle-lines", "2", "--idle-window", "0.1s", "--fan-out", "10", "--fan-out-rounds", "1", "--waiters", "100",
                "--lines-per-parker", "2", "--no-jfr", "--json", json.toString(), "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("lines per parker: 2"), r.out());
        assertTrue(Files.readString(json, StandardCharsets.UTF_8).contains("\"linesPerParker\":2"));
        assertEquals(2, DemoCommandTest.gar(null, null, "scale", "--lines-per-parker", "-1", "--quiet").code());
    }

    @Test
    void bad_options_exit_2_with_a_reason() {
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "scale", "--waits", "soon", "--quiet");
        assertEquals(2, r.code());
        assertTrue((r.out() + r.err()).contains("--waits"), r.out() + r.err());
    }
}
