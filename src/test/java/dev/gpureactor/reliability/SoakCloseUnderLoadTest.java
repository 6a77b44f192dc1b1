package dev.gpureactor.reliability;

import dev.gpureactor.loom.ChildJvm;
import dev.gpureactor.soak.ClosePhase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The soak's close phase ({@link ClosePhase}): {@code reactor.close()} while waits, pool virtual
 * threads, executor tasks, stage and completion callbacks are in flight. In this JVM: every joiner
 * answered with its value or a coded ShutDown, the pool's live threads reach 0, the carriers leave,
 * the executor terminates. In a child JVM ({@link SoakCloseMain}): the same, and the JVM exits by
 * itself. Bounds are hang guards only.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SoakCloseUnderLoadTest {
    private static final int WAITS = 2_000;

    @Test
    void closing_under_load_answers_every_joiner_and_strands_no_thread() {
        long seed = Long.getLong("gar.soak.seed", System.nanoTime());
        ClosePhase.Result r = ClosePhase.run(WAITS, 2, seed);
        String why = r.detail() + " (seed " + seed + ")";
        System.out.println("close phase: " + why);
        assertEquals(WAITS, r.waits(), why);
        assertTrue(r.inFlightAtClose() > 0, "some waits were in flight at the close: " + why);
        assertTrue(r.values() > 0, "some waits completed: " + why);
        assertTrue(r.shutDown() > 0, "the held waits failed ShutDown: " + why);
        assertEquals(0, r.wrong(), why);
        assertEquals(0, r.unanswered(), why);
        assertEquals(WAITS, r.values() + r.shutDown(), why);
        assertEquals(0, r.liveThreads(), why);
        assertTrue(r.carriersLeft(), why);
        assertTrue(r.executorTerminated(), why);
        assertTrue(r.ok(), why);
    }

    @Test
    void the_close_phase_leaves_a_jvm_that_exits_by_itself() throws Exception {
        ChildJvm child = ChildJvm.run(SoakCloseMain.class, 240, Integer.toString(WAITS), Long.toString(System.nanoTime()));
        String output = child.output();
        Map<String, String> facts = child.facts();
        assertTrue(child.exited(), "the child JVM did not exit by itself:\n" + output);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("\ndone"), output);
        assertEquals(Integer.toString(WAITS), facts.get("waits"), output);
        assertNotEquals("0", facts.get("inFlightAtClose"), output);
        assertEquals("0", facts.get("wrong"), output);
        assertEquals("0", facts.get("unanswered"), output);
        assertEquals("0", facts.get("liveThreads"), output);
        assertEquals("true", facts.get("carriersLeft"), output);
        assertEquals("true", facts.get("executorTerminated"), output);
        assertFalse(output.contains("RejectedExecutionException"), "no thread saw our rejection: " + output);
    }
}
