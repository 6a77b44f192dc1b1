package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link ScanOrder}: the positions of a scan's reached waits, oldest registration first; the list's own
 * order where sorting would not pay or the registration ids cannot be packed.
 */
class ScanOrderTest {
    static final CompletionLine LINE = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "t", () -> { });

    static LineWait registered(long id) {
        return new LineWait(id, new MemoryDescriptor(LINE, Slot.of(0), 1), (CompletionPort) null, 0, 0, 0, LineWait.NO_PREDICTION,
                null, null, null) {
            @Override public boolean signal() { return true; }
            @Override public boolean fail(ReactorException error) { return true; }
            @Override public boolean isPending() { return true; }
        };
    }

    /** Waits as a scan of {@code slots} slots lists them: slot by slot, each slot's in registration order. */
    static List<LineWait> slotBySlot(int n, int slots, long firstId) {
        List<LineWait> reached = new ArrayList<>();
        for (int s = 0; s < slots; s++) for (int i = s; i < n; i += slots) reached.add(registered(firstId + i));
        return reached;
    }

    @Test
    void many_waits_of_several_slots_go_oldest_registration_first() {
        int n = 2 * ScanOrder.SORT_FROM;
        List<LineWait> reached = slotBySlot(n, 8, 1_000);
        int[] order = ScanOrder.byRegistration(reached);
        long[] ids = new long[n], expected = new long[n];
        for (int k = 0; k < n; k++) {
            ids[k] = reached.get(order[k]).id;
            expected[k] = 1_000 + k;
        }
        assertArrayEquals(expected, ids);
    }

    @Test
    void fewer_than_the_threshold_keep_the_scan_order() {
        assertNull(ScanOrder.byRegistration(slotBySlot(ScanOrder.SORT_FROM - 1, 8, 1)));
    }

    @Test
    void ids_too_far_apart_to_pack_keep_the_scan_order() {
        List<LineWait> reached = slotBySlot(ScanOrder.SORT_FROM, 8, 1);
        reached.add(registered(1L << 40)); // a wait registered 2^40 registrations later than the others
        assertNull(ScanOrder.byRegistration(reached));
    }
}
