package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code StructuredTaskScope} (preview in JDK 25) over a reactor: src/test/preview/StructuredWaits.java,
 * run as a source file in a child JVM with {@code --enable-preview --source 25} (preview stays out of
 * the library's build and of every other test). Its subtasks run on the reactor's thread factory and
 * join GpuFutures; a failing subtask, and an interrupted owner, cancel the scope, and the subtasks'
 * pending waits end CANCELLED with their registrations withdrawn.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StructuredConcurrencyTest {
    static final Path SOURCE = Path.of("src", "test", "preview", "StructuredWaits.java");

    @Test
    void a_cancelled_scope_cancels_its_subtasks_pending_waits() throws Exception {
        assertTrue(Files.isRegularFile(SOURCE), "run from the project root: " + SOURCE.toAbsolutePath());
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String flags = System.getProperty("gar.test.classpath.jvmFlags", "--enable-native-access=ALL-UNNAMED").trim();
        if (!flags.isEmpty()) cmd.addAll(Arrays.asList(flags.split("\\s+")));
        cmd.addAll(List.of("--enable-preview", "--source", "25", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), SOURCE.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = p.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(output unreadable: " + e + ")";
            }
        });
        boolean exited = p.waitFor(150, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly();
        String output = out.get(30, TimeUnit.SECONDS);
        assertTrue(exited, "the child JVM did not exit:\n" + output);
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("ok: two subtasks on the reactor's thread factory joined their waits: 1, 2"), output);
        assertTrue(output.contains("ok: a failing subtask cancelled the scope and both pending waits"), output);
        assertTrue(output.contains("ok: an interrupted owner cancelled the scope and both pending waits"), output);
    }
}
