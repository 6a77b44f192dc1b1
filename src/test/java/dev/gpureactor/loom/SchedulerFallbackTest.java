package dev.gpureactor.loom;

import dev.gpureactor.core.Strictness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The scheduler fallback of docs/DESIGN.md, in a JVM that really lacks
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED}: pom.xml keeps that flag in one property
 * ({@code gar.addOpens}) that only Surefire's own JVM gets, and passes the rest of the flags a
 * child JVM needs as {@code gar.test.classpath.jvmFlags}. The child runs {@link FallbackMain}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SchedulerFallbackTest {
    private static final String ADD_OPENS = "--add-opens java.base/java.lang=ALL-UNNAMED";

    @Test
    void with_the_flag_the_carrier_pool_runs_and_nothing_is_warned() {
        try (GpuReactor r = GpuReactor.builder().carriers(1).strictness(Strictness.STRICT).build()) {
            assertTrue(r.carriers().isPresent());
            assertEquals(Scheduler.CARRIER_POOL, r.schedulerResolution().running());
            // The only warning allowed is the CPU's: ParkFallback, exactly when the probe finds no hardware park.
            boolean noHardwarePark = !dev.gpureactor.park.WordWait.probe().available();
            assertEquals(noHardwarePark ? List.of(dev.gpureactor.core.ErrorCode.ParkFallback) : List.of(),
                    r.warnings().stream().map(dev.gpureactor.core.Warning::code).toList(), r.warnings().toString());
        }
    }

    @Test
    void without_add_opens_the_reactor_falls_back_with_a_coded_warning_and_strict_refuses() throws Exception {
        Child child = runWithoutAddOpens(FallbackMain.class);
        assertEquals(0, child.exit(), child.output());
        Map<String, List<String>> facts = child.facts();

        assertTrue(first(facts, "hook").startsWith("missing:"), child.output());
        assertTrue(first(facts, "hook").contains(ADD_OPENS), "the probe names the flag: " + child.output());

        List<String> warnings = facts.getOrDefault("warning", List.of());
        assertEquals(1, warnings.size(), "only the scheduler falls back (gpu-reactor still runs): " + child.output());
        String w = warnings.getFirst();
        assertTrue(w.startsWith("GAR-0003 ExecutorFallback: "), w);
        assertTrue(w.contains("carrier-pool cannot run"), w);
        assertTrue(w.endsWith("running jdk-default"), w);
        assertTrue(w.contains(ADD_OPENS), "the warning says which flag is missing: " + w);
        assertEquals("1", first(facts, "warnings.kept"), "the warning is also kept as a value");

        assertEquals("carrier-pool", first(facts, "scheduler.requested"));
        assertEquals("jdk-default", first(facts, "scheduler.running"));
        assertEquals("false", first(facts, "carrierPool"));

        String joined = first(facts, "joined");
        assertTrue(joined.startsWith("42 virtual=true "), child.output());
        assertTrue(joined.contains("ForkJoinPool"), "mounted on the JDK's default scheduler: " + joined);
        assertFalse(joined.contains("gar-carrier"), joined);
        assertEquals("SUCCESS", first(facts, "state"));

        assertFalse(facts.containsKey("strict"), "strict must not build: " + child.output());
        assertEquals("ExecutorRefused", first(facts, "strict.code"));
        String refused = first(facts, "strict.message");
        assertTrue(refused.startsWith("GAR-0004 ExecutorRefused: carrier-pool cannot run"), refused);
        assertTrue(refused.contains(ADD_OPENS), refused);
        assertEquals("", first(facts, "done"));
    }

    private static String first(Map<String, List<String>> facts, String key) {
        List<String> v = facts.get(key);
        assertNotNull(v, "the child printed no " + key + " line: " + facts);
        return v.getFirst();
    }

    record Child(int exit, String output) {
        /** {@code key=value} lines, by key, in order. */
        Map<String, List<String>> facts() {
            Map<String, List<String>> out = new LinkedHashMap<>();
            for (String line : output.split("\\R")) {
                if (line.equals("done")) {
                    out.put("done", List.of(""));
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq > 0) out.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>()).add(line.substring(eq + 1));
            }
            return out;
        }
    }

    /** Runs {@code main} in a fresh JVM with this JVM's class path and the pom's child flags, never {@code --add-opens}. */
    static Child runWithoutAddOpens(Class<?> main) throws Exception {
        List<String> cmd = ChildJvm.java();
        cmd.addAll(List.of("-Xshare:auto", "-cp", System.getProperty("java.class.path"), main.getName()));
        for (String arg : cmd) assertFalse(arg.contains("add-opens"), "the child must not get --add-opens: " + cmd);
        // Options could also arrive through the environment: the child gets none of them.
        ChildJvm c = ChildJvm.exec(cmd, 90, "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");
        if (!c.exited()) fail("the child JVM hung: " + cmd);
        return new Child(c.exitValue(), c.output());
    }
}
