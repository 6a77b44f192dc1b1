package dev.gpureactor.core;

import static dev.gpureactor.core.MemoryDescriptor.reached;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Reached in wrapping order: right across the 2^64 boundary for targets within 2^63 of the word. */
class MemoryDescriptorTest {
    @Test
    void plain_order() {
        assertTrue(reached(0, 0));
        assertTrue(reached(1, 0));
        assertFalse(reached(0, 1));
        assertTrue(reached(1_000, 999));
        assertFalse(reached(999, 1_000));
    }

    @Test
    void across_the_signed_boundary() {
        // Long.MAX_VALUE + 1 == Long.MIN_VALUE: the next sequence number.
        assertTrue(reached(Long.MAX_VALUE, Long.MAX_VALUE));
        assertFalse(reached(Long.MAX_VALUE, Long.MIN_VALUE), "MAX has not reached MAX+1");
        assertTrue(reached(Long.MIN_VALUE, Long.MAX_VALUE), "MAX+1 reached MAX");
        assertTrue(reached(Long.MIN_VALUE + 5, Long.MAX_VALUE - 5));
        assertFalse(reached(Long.MAX_VALUE - 5, Long.MIN_VALUE + 5));
    }

    @Test
    void across_the_unsigned_boundary() {
        // -1 is 2^64 - 1 unsigned; 0 is the next sequence number after it.
        assertTrue(reached(0, -1), "2^64 wrapped to 0 reached 2^64-1");
        assertFalse(reached(-1, 0), "2^64-1 has not reached 2^64");
        assertTrue(reached(3, -2));
        assertFalse(reached(-2, 3));
        assertTrue(reached(-1, -1));
        assertTrue(reached(-1, -2));
        assertFalse(reached(-2, -1));
    }

    @Test
    void half_the_ring_away() {
        long t = 12345;
        assertTrue(reached(t + Long.MAX_VALUE, t), "2^63 - 1 ahead is reached");
        assertFalse(reached(t + Long.MIN_VALUE, t), "exactly 2^63 away is behind");
        assertFalse(reached(t - Long.MAX_VALUE, t));
    }

    @Test
    void a_descriptor_reads_its_slot_with_acquire_and_with_sequential_consistency() {
        try (CompletionLine line = CompletionLine.allocate()) {
            MemoryDescriptor d = new MemoryDescriptor(line, Slot.of(5), 3);
            assertFalse(d.isComplete());
            line.store(Slot.of(5), 2);
            line.store(Slot.of(4), 100);
            assertFalse(d.isComplete(), "another slot's store does not complete it");
            assertFalse(d.isCompleteVolatile());
            line.store(Slot.of(5), 3);
            assertTrue(d.isComplete());
            assertTrue(d.isCompleteVolatile());
            line.store(Slot.of(5), 4);
            assertTrue(d.isComplete(), "a later store that lands before the waiter looks still completes it");

            MemoryDescriptor wrap = new MemoryDescriptor(line, Slot.of(0), 0);
            line.store(Slot.of(0), -1);
            assertFalse(wrap.isComplete());
            line.store(Slot.of(0), 0);
            assertTrue(wrap.isComplete());

            assertEquals(line.name() + "[5]>=3", d.toString());
            assertEquals(line.name() + "[1]>=18446744073709551615", new MemoryDescriptor(line, Slot.of(1), -1).toString());
        }
    }

    @Test
    void a_descriptor_needs_a_line_and_a_slot() {
        try (CompletionLine line = CompletionLine.allocate()) {
            assertThrows(NullPointerException.class, () -> new MemoryDescriptor(null, Slot.of(0), 1));
            assertThrows(NullPointerException.class, () -> new MemoryDescriptor(line, null, 1));
        }
    }
}
