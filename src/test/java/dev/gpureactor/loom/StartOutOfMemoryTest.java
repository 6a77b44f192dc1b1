package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A task submitted to {@code reactor.newExecutor()} in a full heap runs, or its future fails; it is never left
 * undone without having begun, and the pool counts no thread that is gone. An outside probe's allocation storm
 * (300 tasks of up to 20 MB at {@code -Xmx64m}) left 52-79 of 300 futures undone on the reactor against 0-12 on the
 * JDK's executor: the pool's first act in each new thread made the thread's live entry, and an
 * {@code OutOfMemoryError} there ended the thread before its task, with its live count taken for good (the close
 * then named threads that did not exist, and the carriers never retired). The entry is now made by the code that
 * makes the thread, and nothing before the task allocates.
 *
 * <p>What this cannot ask: the JDK itself strands a few threads in such a storm, on its own scheduler too (1-12
 * here): {@code VirtualThread.afterYield} allocates a timed park's timer before it moves the thread to
 * {@code TIMED_PARKED}, and an {@code OutOfMemoryError} there leaves it {@code TIMED_PARKING} with no timer. Those
 * began and stay alive, so they count in neither {@code unbegun} nor a mismatch of {@code live} and {@code alive}.
 */
class StartOutOfMemoryTest {
    @Test
    void a_task_started_in_a_full_heap_runs_and_no_thread_is_counted_after_it_ended() throws Exception {
        ChildJvm c = ChildJvm.run(StartOutOfMemoryMain.class, 120, List.of("-Xmx64m"));
        assertTrue(c.exited(), "the child hung:\n" + c.output());
        assertTrue(c.output().contains("done"), c.output());
        assertEquals("0", c.facts().get("unbegun"), "futures undone whose task never began: " + c.facts());
        assertEquals(c.facts().get("alive"), c.facts().get("live"), "the pool's live count against the threads alive: " + c.facts());
    }
}
