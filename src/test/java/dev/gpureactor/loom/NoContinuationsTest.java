package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM whose virtual threads run without continuations ({@code -XX:-VMContinuations}, one of the
 * configurations the JDK runs its own virtual-thread tests in) gives them no scheduler: the JDK's
 * builder refuses one. The reactor falls back to the JDK's scheduler with the coded
 * {@code ExecutorFallback} warning that says why, refuses under {@code Strictness.STRICT} with the same
 * reason, and a reactor that does not open leaves no thread behind.
 */
class NoContinuationsTest {
    @Test
    void without_continuations_the_reactor_falls_back_strict_refuses_and_no_thread_is_left() throws Exception {
        ChildJvm c = ChildJvm.run(NoContinuationsMain.class, 120,
                List.of("-XX:+UnlockExperimentalVMOptions", "-XX:-VMContinuations"));
        assertTrue(c.exited(), "the child hung:\n" + c.output());
        assertEquals(0, c.exitValue(), c.output());
        List<String> lines = Arrays.asList(c.output().split("\\R"));

        String hook = c.facts().get("hook");
        assertTrue(hook.startsWith("missing:") && hook.contains("-XX:-VMContinuations"), "the probe says why: " + c.output());

        List<String> warnings = lines.stream().filter(l -> l.startsWith("warning=")).toList();
        assertEquals(3, warnings.size(), "one fallback warning per open, nothing else: " + c.output());
        for (String w : warnings) {
            assertTrue(w.startsWith("warning=GAR-0003 ExecutorFallback: carrier-pool cannot run"), w);
            assertTrue(w.contains("-XX:-VMContinuations") && w.endsWith("running jdk-default"), w);
        }
        assertEquals(3, lines.stream().filter(l -> l.equals("scheduler.running=jdk-default")).count(), c.output());
        assertEquals(3, lines.stream().filter(l -> l.equals("joined=42")).count(), "each reactor's wait completes: " + c.output());

        assertEquals(3, lines.stream().filter(l -> l.equals("strict.code=ExecutorRefused")).count(), "strict refuses: " + c.output());
        assertTrue(c.facts().get("strict.message").contains("-XX:-VMContinuations"), c.output());

        assertEquals("", c.facts().get("left"), "no gar- thread outlives its reactor or a refused open: " + c.output());
        assertTrue(lines.contains("done"), c.output());
    }
}
