package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        List<String> cmd = ChildJvm.java();
        cmd.addAll(List.of("--enable-preview", "--source", "25", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), SOURCE.toString()));
        ChildJvm child = ChildJvm.exec(cmd, 150, "JAVA_TOOL_OPTIONS");
        String output = child.output();
        assertTrue(child.exited(), "the child JVM did not exit:\n" + output);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("ok: two subtasks on the reactor's thread factory joined their waits: 1, 2"), output);
        assertTrue(output.contains("ok: a failing subtask cancelled the scope and both pending waits"), output);
        assertTrue(output.contains("ok: an interrupted owner cancelled the scope and both pending waits"), output);
    }
}
