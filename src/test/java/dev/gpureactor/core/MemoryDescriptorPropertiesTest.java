package dev.gpureactor.core;

import static dev.gpureactor.core.MemoryDescriptor.reached;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Wrapping order over the whole ring, for any starting point t. */
class MemoryDescriptorPropertiesTest {
    /** Any word 0 .. 2^63 - 1 steps ahead of the target has reached it. */
    @Property(tries = 3000)
    void ahead_by_less_than_half_the_ring_is_reached(@ForAll long t, @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long k) {
        assertTrue(reached(t + k, t), () -> Long.toUnsignedString(t + k) + " should reach " + Long.toUnsignedString(t));
    }

    /** Any word 1 .. 2^63 steps behind the target has not. (2^63 itself is k = Long.MIN_VALUE as a step.) */
    @Property(tries = 3000)
    void behind_by_up_to_half_the_ring_is_not_reached(@ForAll long t, @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long k) {
        assertFalse(reached(t - k, t), () -> Long.toUnsignedString(t - k) + " should not reach " + Long.toUnsignedString(t));
        assertFalse(reached(t - Long.MIN_VALUE, t), "2^63 behind");
    }

    /** Exactly one of two distinct words is ahead of the other, except at distance 2^63 where both are behind. */
    @Property(tries = 3000)
    void order_is_antisymmetric(@ForAll long a, @ForAll long b) {
        if (a == b) {
            assertTrue(reached(a, b));
        } else if (a - b == Long.MIN_VALUE) {
            assertFalse(reached(a, b));
            assertFalse(reached(b, a));
        } else {
            assertTrue(reached(a, b) ^ reached(b, a));
        }
    }

    /** The step just before the target never reached it, the target itself always did, from anywhere on the ring. */
    @Property(tries = 3000)
    void the_step_before_is_not_the_target(@ForAll long t) {
        assertTrue(reached(t, t));
        assertFalse(reached(t - 1, t));
        assertTrue(reached(t + 1, t));
    }
}
