package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SlotWaits}: lowest target first for heads and removals; a slot drained whole comes out in arrival
 * order while only registrations changed it since it was last empty, else lowest target first, and every
 * wait comes out exactly once either way.
 */
class SlotWaitsTest {
    private long ids;

    private LineWait waitOn(long target) {
        return new LineWait(++ids, new MemoryDescriptor(ScanOrderTest.LINE, Slot.of(0), target), (CompletionPort) null, 0, 0, 0,
                LineWait.NO_PREDICTION, null, null, null) {
            @Override public boolean signal() { return true; }
            @Override public boolean fail(ReactorException error) { return true; }
            @Override public boolean isPending() { return true; }
        };
    }

    private static List<Long> targets(List<LineWait> ws) {
        List<Long> out = new ArrayList<>();
        for (LineWait w : ws) out.add(w.descriptor().target());
        return out;
    }

    @Test
    void heads_and_the_last_go_by_target_whatever_the_arrival_order() {
        SlotWaits slot = new SlotWaits();
        for (long t : new long[] {5, 2, 9, 2}) slot.add(waitOn(t));
        assertEquals(2, slot.first().descriptor().target());
        assertEquals(9, slot.last().descriptor().target());
        assertEquals(4, slot.size());
    }

    @Test
    void a_slot_only_registered_into_drains_in_arrival_order() {
        SlotWaits slot = new SlotWaits();
        for (long t : new long[] {5, 2, 9, 7}) slot.add(waitOn(t));
        ArrayList<LineWait> out = new ArrayList<>();
        slot.drainTo(out);
        assertEquals(List.of(5L, 2L, 9L, 7L), targets(out));
        assertTrue(slot.isEmpty());
        assertNull(slot.first());
    }

    @Test
    void after_a_removal_or_a_head_taken_out_a_drain_goes_by_target_and_loses_nothing() {
        SlotWaits slot = new SlotWaits();
        List<LineWait> ws = new ArrayList<>();
        for (long t : new long[] {5, 2, 9, 7, 3}) {
            LineWait w = waitOn(t);
            ws.add(w);
            slot.add(w);
        }
        assertTrue(slot.remove(ws.get(2))); // 9
        assertFalse(slot.remove(ws.get(2)), "removed twice");
        slot.add(waitOn(8)); // after the removal: the arrival log stays given up
        ArrayList<LineWait> out = new ArrayList<>();
        slot.drainTo(out);
        assertEquals(List.of(2L, 3L, 5L, 7L, 8L), targets(out));

        for (long t : new long[] {6, 4}) slot.add(waitOn(t));
        assertEquals(4, slot.pollFirst().descriptor().target());
        out.clear();
        slot.drainTo(out);
        assertEquals(List.of(6L), targets(out));
    }

    @Test
    void emptied_by_its_heads_a_slot_drains_in_arrival_order_again() {
        SlotWaits slot = new SlotWaits();
        slot.add(waitOn(1));
        slot.add(waitOn(2));
        slot.pollFirst();
        slot.pollFirst();
        LineWait a = waitOn(4), b = waitOn(3);
        slot.add(a);
        slot.add(b);
        ArrayList<LineWait> out = new ArrayList<>();
        slot.drainTo(out);
        assertSame(a, out.get(0));
        assertSame(b, out.get(1));
        assertEquals(2, out.size());
    }

    @Test
    void many_waits_drained_come_out_once_each_and_the_slot_is_ready_again() {
        SlotWaits slot = new SlotWaits();
        for (int i = 0; i < 10_000; i++) slot.add(waitOn(10_000 - i));
        ArrayList<LineWait> out = new ArrayList<>();
        slot.drainTo(out);
        assertEquals(10_000, out.size());
        assertEquals(10_000, out.stream().distinct().count());
        assertEquals(10_000L, out.getFirst().descriptor().target(), "arrival order");
        slot.add(waitOn(1));
        assertEquals(1, slot.size());
    }
}
