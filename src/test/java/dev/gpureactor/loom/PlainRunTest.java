package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What a user sees on stderr from a plain program ({@link PlainRunMain}) on the simulated device, in
 * a JVM of its own with exactly the flags named here (none of the test JVM's, none from the
 * environment). The library's log goes through {@code System.Logger} to the JDK's default backend,
 * java.util.logging, whose console handler prints two lines per record on stderr: a date line and
 * "LEVEL: message".
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlainRunTest {
    private static final List<String> FLAGS =
            List.of("--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED");

    @Test
    void without_flags_the_fallback_is_logged_once_and_no_restricted_method_warning_is_printed() throws Exception {
        Run run = run(List.of());
        assertEquals(0, run.exit(), run::all);
        assertTrue(run.out().contains("state=SUCCESS"), run::all);
        assertTrue(run.out().contains("scheduler=jdk-default"), run::all);
        assertFalse(run.err().contains("restricted method"), () -> "the JDK's restricted-method warning: " + run.all());
        List<String> fallback = run.errLines().stream().filter(l -> l.contains("GAR-0003 ExecutorFallback")).toList();
        assertEquals(1, fallback.size(), run::all);
        assertTrue(fallback.getFirst().startsWith("WARNING: GpuReactor reactor-"), run::all);
        assertTrue(fallback.getFirst().contains("--add-opens java.base/java.lang=ALL-UNNAMED"), "it names the flag: " + run.all());
        // Besides it, at most the pure-Java park's note (INFO without native access, naming that flag).
        assertEquals(fallback, run.errLines().stream().filter(l -> l.startsWith("WARNING: ")).toList(), run::all);
        for (String l : run.errLines()) {
            if (l.startsWith("INFO: ")) {
                assertTrue(l.contains("GAR-0002 ParkFallback") && l.contains("--enable-native-access=ALL-UNNAMED"), run::all);
            }
        }
    }

    @Test
    void with_the_flags_a_plain_run_prints_nothing_on_stderr() throws Exception {
        Run run = run(FLAGS);
        assertEquals(0, run.exit(), run::all);
        assertTrue(run.out().contains("state=SUCCESS"), run::all);
        assertTrue(run.out().contains("scheduler=carrier-pool"), run::all);
        // ParkFallback (no hardware word wait on this CPU) is kept as a value, logged at DEBUG: not printed.
        assertEquals("", run.err(), run::all);
    }

    record Run(int exit, String out, String err) {
        List<String> errLines() { return err.lines().toList(); }

        String all() { return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err; }
    }

    private static Run run(List<String> flags) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(flags);
        cmd.addAll(Arrays.asList("-cp", System.getProperty("java.class.path"), PlainRunMain.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().remove("_JAVA_OPTIONS");
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the child JVM hung: " + cmd);
        }
        return new Run(p.exitValue(), out.join(), err.join());
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
