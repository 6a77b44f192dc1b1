package dev.gpureactor.loom;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Closing the reactor under a loaded HTTP server (issue 14, item 2), in a child JVM running
 * {@link CloseUnderLoadMain}: every request the server took is answered, with its value or a
 * coded {@code ShutDown}; none hangs and none is wrong; {@code HttpServer.stop()} returns; the
 * JDK's unblocker, unparker and poller threads are alive; the carriers leave; the JVM exits by
 * itself. Bounds are hang guards only.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CloseUnderLoadTest {
    @ParameterizedTest
    @EnumSource(CarrierPolicy.class)
    void closing_the_reactor_under_load_answers_every_request_and_the_jvm_exits(CarrierPolicy policy) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String flags = System.getProperty("gar.test.classpath.jvmFlags", "--enable-native-access=ALL-UNNAMED").trim();
        if (!flags.isEmpty()) cmd.addAll(Arrays.asList(flags.split("\\s+")));
        cmd.addAll(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Xshare:auto", "-cp",
                System.getProperty("java.class.path"), CloseUnderLoadMain.class.getName(), policy.name()));
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
        boolean exited = p.waitFor(240, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly();
        String output = out.get(30, TimeUnit.SECONDS);
        assertTrue(exited, "the child JVM did not exit by itself:\n" + output);
        assertEquals(0, p.exitValue(), output);
        Map<String, String> facts = new LinkedHashMap<>();
        for (String line : output.split("\\R")) {
            int eq = line.indexOf('=');
            if (eq > 0) facts.put(line.substring(0, eq), line.substring(eq + 1));
        }
        assertTrue(output.contains("\ndone"), output);
        assertTrue(Long.parseLong(facts.get("values")) > 0, "the load ran: " + output);
        assertEquals("0", facts.get("wrong"), output);
        assertEquals("0", facts.get("hung"), "every request was answered or refused, none hangs: " + output);
        assertEquals("0", facts.get("lostBeforeClose"), output);
        assertEquals("0", facts.get("handlersUnfinished"), "every handler that started answered: " + output);
        assertEquals("true", facts.get("clientsEnded"), output);
        assertEquals("true", facts.get("stopReturned"), "HttpServer.stop() returned: " + output);
        assertEquals("true", facts.get("carriersLeft"), output);
        assertEquals("0", facts.get("liveThreads"), output);
        assertEquals("alive", facts.get("jdk.VirtualThread-unparker"), "handlers sleep, so the unparker ran and lives: " + output);
        assertTrue(Integer.parseInt(facts.get("jdkThreads")) >= 1, output);
        facts.forEach((k, v) -> {
            if (k.startsWith("jdk.")) assertEquals("alive", v, k + " died: " + output);
        });
        assertFalse(output.contains("RejectedExecutionException"), "no thread saw our rejection: " + output);
    }
}
