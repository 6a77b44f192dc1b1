package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.DeadlinePlan;
import dev.gpureactor.core.PointTable;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@link SlotPoint}, the estimator's default key: each wait makes its own, and the waits of one line's slot
 * must teach one estimate (another line's same slot, or another slot, a different one).
 */
class SlotPointTest {
    static CompletionLine line(String name) {
        return CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), name, () -> { });
    }

    @Test
    void the_points_of_one_lines_slot_are_one_key_and_another_line_or_slot_another() {
        CompletionLine a = line("a"), b = line("b");
        assertEquals(new SlotPoint(a, 3), new SlotPoint(a, 3));
        assertEquals(new SlotPoint(a, 3).hashCode(), new SlotPoint(a, 3).hashCode());
        assertNotEquals(new SlotPoint(a, 3), new SlotPoint(b, 3), "another line's slot 3");
        assertNotEquals(new SlotPoint(a, 3), new SlotPoint(a, 4), "another slot");
        assertNotEquals(new SlotPoint(a, 3), null);
        assertEquals(new SlotPoint(null, 1), new SlotPoint(null, 1)); // the reactor's first use keys a table so
        assertEquals(new SlotPoint(null, 1).hashCode(), new SlotPoint(null, 1).hashCode());
    }

    @Test
    void waits_of_one_slot_each_with_its_own_point_teach_one_estimate() {
        CompletionLine a = line("a"), b = line("b");
        PointTable<Object> table = new PointTable<>();
        DeadlinePlan plan = new DeadlinePlan(0, 0, 1_000_000, 8);
        for (int i = 0; i < 5; i++) table.observeRun(new SlotPoint(a, 2), plan, new long[] {1_000_000}, 1, false);
        table.observeRun(new SlotPoint(b, 2), plan, new long[] {1_000_000}, 1, false);
        assertEquals(2, table.size(), "one estimate for line a's slot 2, one for line b's");
        assertEquals(5, table.estimate(new SlotPoint(a, 2)).sampleCount());
        assertEquals(1, table.estimate(new SlotPoint(b, 2)).sampleCount());
    }
}
