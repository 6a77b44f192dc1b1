package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The watch's pure decision: which carrier is blocked inside one task, and how many extra carriers to run. */
class CarrierWatchTest {
    @Test
    void a_carrier_waiting_inside_the_same_task_as_at_the_last_look_is_blocked() {
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.WAITING));
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.TIMED_WAITING));
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.BLOCKED));
    }

    @Test
    void a_computing_an_idle_or_a_moving_carrier_is_not() {
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE), "computing: left alone, as the JDK leaves it");
        assertFalse(CarrierWatch.blocked(5, 5, 5, Thread.State.WAITING), "between tasks: an idle carrier waits for work");
        assertFalse(CarrierWatch.blocked(4, 5, 4, Thread.State.WAITING), "a task begun since the last look may just be slow");
        assertFalse(CarrierWatch.blocked(-1, 1, 0, Thread.State.WAITING), "the first look sees no task twice");
    }

    @Test
    void one_extra_carrier_per_blocked_one_while_tasks_wait() {
        assertEquals(1, CarrierWatch.extraWanted(1, 3, 0));
        assertEquals(2, CarrierWatch.extraWanted(2, 1, 1));
        assertEquals(2, CarrierWatch.extraWanted(1, 1, 2), "no churn while some are still blocked");
        assertEquals(CarrierWatch.MAX_EXTRA, CarrierWatch.extraWanted(10_000, 1, 0), "capped, as the JDK caps its compensation");
    }

    @Test
    void no_extra_carrier_without_a_blocked_one_or_without_waiting_tasks() {
        assertEquals(0, CarrierWatch.extraWanted(0, 5, 2), "none blocked: the extras go");
        assertEquals(0, CarrierWatch.extraWanted(1, 0, 0), "blocked but nothing waits: no carrier is needed");
        assertEquals(1, CarrierWatch.extraWanted(1, 0, 1), "blocked, nothing waits now: the extra stays");
    }
}
