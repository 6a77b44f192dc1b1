package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SlotWaits}: lowest target first for heads and removals; a slot drained whole comes out in arrival
 * order while only registrations changed it since it was last empty, else lowest target first, and every
 * wait comes out exactly once either way; and any mix of those against a model (a tree and an arrival log).
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

    @Test
    void waits_that_arrive_in_order_are_heads_in_order_cut_out_found_and_held_once() {
        SlotWaits slot = new SlotWaits();
        List<LineWait> ws = new ArrayList<>();
        for (long t = 1; t <= 100; t++) {
            LineWait w = waitOn(t);
            ws.add(w);
            assertTrue(slot.add(w));
        }
        assertFalse(slot.add(ws.get(40)), "held already");
        assertFalse(slot.add(ws.get(99)), "held already (the last)");
        assertSame(ws.get(0), slot.pollFirst());
        assertTrue(slot.remove(ws.get(50)), "cut out of the middle");
        assertFalse(slot.contains(ws.get(50)));
        assertTrue(slot.contains(ws.get(51)));
        assertFalse(slot.remove(ws.get(0)), "taken out already");
        assertEquals(98, slot.size());
        assertSame(ws.get(1), slot.first());
        assertSame(ws.get(99), slot.last());
        ArrayList<LineWait> out = new ArrayList<>();
        slot.drainTo(out);
        List<LineWait> expected = new ArrayList<>(ws.subList(1, 100));
        expected.remove(ws.get(50));
        assertEquals(expected, out);
    }

    @Test
    void a_slot_that_never_empties_takes_its_heads_in_order_for_ever() {
        SlotWaits slot = new SlotWaits();
        long next = 1, expected = 1;
        for (int i = 0; i < 8; i++) slot.add(waitOn(next++));
        for (int i = 0; i < 100_000; i++) { // a stream's queue: one in, one out, never empty
            slot.add(waitOn(next++));
            assertEquals(expected++, slot.pollFirst().descriptor().target());
        }
        assertEquals(8, slot.size());
    }

    @Test
    void any_mix_of_intakes_removals_heads_and_drains_agrees_with_a_tree_and_an_arrival_log() {
        Random random = new Random(42);
        for (int run = 0; run < 200; run++) {
            SlotWaits slot = new SlotWaits();
            TreeSet<LineWait> model = new TreeSet<>(LineWait.BY_TARGET);
            List<LineWait> arrived = new ArrayList<>();
            boolean onlyIntakes = true; // since the slot was last empty
            long target = 1_000;
            int ops = run % 2 == 0 ? 10 : 9; // odd runs never drain: their slots grow past the list's cut-out bound
            for (int step = 0; step < 300; step++) {
                int op = step == 299 ? 9 : random.nextInt(ops);
                if (op < 6) { // an intake, mostly in order
                    target += random.nextInt(10) < 8 ? random.nextInt(3) : -random.nextInt(20);
                    LineWait w = waitOn(target);
                    assertTrue(slot.add(w));
                    model.add(w);
                    arrived.add(w);
                } else if (op < 7) {
                    LineWait head = model.pollFirst();
                    assertSame(head, slot.pollFirst());
                    if (head != null) onlyIntakes = false;
                } else if (op < 9 && !model.isEmpty()) {
                    LineWait w = new ArrayList<>(model).get(random.nextInt(model.size()));
                    assertTrue(slot.remove(w));
                    assertFalse(slot.remove(w));
                    model.remove(w);
                    onlyIntakes = false;
                } else {
                    ArrayList<LineWait> out = new ArrayList<>();
                    slot.drainTo(out);
                    assertEquals(onlyIntakes ? arrived : new ArrayList<>(model), out, "run " + run + ", step " + step);
                    model.clear();
                }
                if (model.isEmpty()) {
                    onlyIntakes = true;
                    arrived.clear();
                }
                assertEquals(model.size(), slot.size());
                assertSame(model.isEmpty() ? null : model.first(), slot.first());
                if (!model.isEmpty()) assertSame(model.last(), slot.last());
                for (LineWait w : model) assertTrue(slot.contains(w));
            }
        }
    }
}
