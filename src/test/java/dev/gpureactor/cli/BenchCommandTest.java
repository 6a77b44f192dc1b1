package dev.gpureactor.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code gar bench} in process, as {@code main} runs it: a tiny run writes its table and JSON; a bad
 * option exits 2 with its reason on the command line's stderr, as service and scale do. No timing is
 * asserted (the machine is shared).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BenchCommandTest {
    @Test
    void a_tiny_run_writes_the_table_and_the_json(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("bench.json");
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "bench", "--waits", "1ms", "--strategies", "reactor,busy-spin",
                "--duration", "0.05s", "--rounds", "1", "--min-waits", "1", "--futures", "0", "--warmup", "0.01s",
                "--json", json.toString(), "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("wait   strategy"), r.out());
        assertEquals("", r.err(), "--quiet: no progress");
        String j = Files.readString(json, StandardCharsets.UTF_8);
        assertTrue(j.startsWith("{") && j.contains("\"strategy\":\"reactor\"") && j.contains("\"strategy\":\"busy-spin\"")
                && j.contains("\"cellSeconds\":0.05"), "the two strategies, 0.05 s a cell: " + j);
    }

    @Test
    void bad_options_exit_2_with_a_reason() {
        DemoCommandTest.Run r = DemoCommandTest.gar(null, null, "bench", "--rounds", "0", "--quiet");
        assertEquals(2, r.code());
        assertEquals("gar bench: --rounds must be 1..100, got 0\n", r.err().replace("\r\n", "\n"));
        DemoCommandTest.Run jitter = DemoCommandTest.gar(null, null, "bench", "--jitter", "some", "--quiet");
        assertEquals(2, jitter.code());
        assertTrue(jitter.err().startsWith("gar bench: --jitter: \"some\" is not one of none, pollers, all"), jitter.err());
    }
}
