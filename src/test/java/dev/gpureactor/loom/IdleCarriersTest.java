package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Issue 14, item 10, replayed deterministically on the real {@link IdleCarriers}: the submitter's
 * signal lands between carrier A's announcement and its re-check (the re-check itself runs it), and
 * A's re-check then finds other work. The sleeping carrier B must be the one woken; before the fix
 * the signal was spent on A, and the new task waited behind A's work while B slept.
 * (jcstress: {@code IdleCarriersStress} and its negative control.)
 */
class IdleCarriersTest {
    @Test
    void a_signal_that_claims_a_carrier_which_then_found_work_reaches_the_sleeping_one() {
        IdleCarriers idle = new IdleCarriers();
        Thread a = Thread.ofPlatform().unstarted(() -> { }), b = Thread.ofPlatform().unstarted(() -> { });
        assertTrue(idle.announce(b, () -> false), "B finds nothing and may park");
        assertEquals(1, idle.sleeping());
        boolean aMayPark = idle.announce(a, () -> {
            assertTrue(idle.signal(), "the submitter's signal claims someone"); // lands after A's push
            return true; // A's re-check finds other work: A stays awake to run it
        });
        assertFalse(aMayPark);
        assertEquals(0, idle.sleeping(), "B was woken for the new task");
    }

    @Test
    void a_carrier_that_withdrew_is_skipped_by_the_next_signal() {
        IdleCarriers idle = new IdleCarriers();
        Thread a = Thread.ofPlatform().unstarted(() -> { }), b = Thread.ofPlatform().unstarted(() -> { });
        assertTrue(idle.announce(b, () -> false));
        assertFalse(idle.announce(a, () -> true)); // A withdrew before any signal
        assertTrue(idle.signal());
        assertEquals(0, idle.sleeping(), "the signal went to B, not to the withdrawn A");
        assertFalse(idle.signal(), "nobody else sleeps");
    }
}
