package dev.gpureactor.parker;

import java.util.Arrays;
import java.util.List;

/**
 * The order a scan settles the waits it took out of several slots: by registration, oldest first. A slot's
 * set gives its own waits in target order, so a scan that reached many slots at once would settle them
 * slot by slot, and the carriers would resume the woken threads in that order (the batch keeps it:
 * {@code ForkJoinCarriers.Spread}). Threads that registered one after another mostly parked one after
 * another, their stack chunks and objects near each other in memory; resumed slot by slot they are taken
 * a stride apart, which cost the floor's threads 2–3× their carriers' CPU (docs/SCALE.md, "The order of a
 * batch's resumes"). Registration order is also first come, first served across the slots.
 */
final class ScanOrder {
    /** Fewer reached waits than this settle in slot order: the sort would cost more than it saves. */
    static final int SORT_FROM = 64;
    /** Bits of a packed key that hold the position; a larger scan settles in slot order. */
    private static final int POSITION_BITS = 24;
    private static final long POSITION_MASK = (1L << POSITION_BITS) - 1;

    private ScanOrder() {}

    /**
     * The positions in {@code reached} (waits of several slots) ordered by registration, or null to keep
     * the list's order: fewer than {@link #SORT_FROM}, more than the packed key holds, registrations too
     * far apart to pack (each key is the registration id less the least one, above the position), or no
     * memory for the keys (a scan must settle its waits whatever the heap: a full one keeps the slot order).
     */
    static int[] byRegistration(List<LineWait> reached) {
        try {
            return sorted(reached);
        } catch (OutOfMemoryError e) {
            return null; // the order is an optimisation: without memory for it the scan settles slot by slot
        }
    }

    private static int[] sorted(List<LineWait> reached) {
        int n = reached.size();
        if (n < SORT_FROM || n > POSITION_MASK) return null;
        long[] keys = new long[n];
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) { // each wait read once: a scan of thousands has them out of the caches
            long id = reached.get(i).id;
            keys[i] = id;
            min = Math.min(min, id);
            max = Math.max(max, id);
        }
        if (min < 0 || max - min >= 1L << (63 - POSITION_BITS)) return null;
        for (int i = 0; i < n; i++) keys[i] = (keys[i] - min) << POSITION_BITS | i;
        Arrays.sort(keys); // primitives: no comparator call per pair
        int[] order = new int[n];
        for (int k = 0; k < n; k++) order[k] = (int) (keys[k] & POSITION_MASK);
        return order;
    }
}
