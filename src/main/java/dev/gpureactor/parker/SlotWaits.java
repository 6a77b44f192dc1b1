package dev.gpureactor.parker;

import java.util.ArrayList;
import java.util.TreeSet;

/**
 * The waits a {@link LineWatch} holds on one slot: lowest target first ({@link LineWait#BY_TARGET}) for the
 * scan's heads, the backstop and removals, and, while only registrations changed the slot since it was last
 * empty, in arrival order as well. A scan that finds every wait of a slot reached ({@link #drainTo}) then takes
 * them out as one array copy. Walking the tree instead chases one entry per wait, each allocated at its intake
 * among other slots' entries: in a 10,000-waiter wake that walk was 18–19 % of the parker's samples, on the
 * wake's critical path (docs/SCALE.md, "A reached slot taken out in arrival order").
 *
 * <p><b>Invariant.</b> {@code arrivals} holds exactly the waits of {@code byTarget}, in the order they were
 * added, or nothing; so it is exact when the two sizes agree (an empty slot's included). Every removal but a
 * whole drain empties it, and a slot left with waits keeps no log until it is empty again. The parker's loop
 * owns this (no field is shared; see {@link LineWatch}).
 */
final class SlotWaits {
    /** A drained log longer than this gives its array back, so a burst of waits does not keep it. */
    private static final int KEEP_CAPACITY = 256;

    private final TreeSet<LineWait> byTarget = new TreeSet<>(LineWait.BY_TARGET);
    private final ArrayList<LineWait> arrivals = new ArrayList<>();

    boolean isEmpty() { return byTarget.isEmpty(); }

    int size() { return byTarget.size(); }

    /** The lowest target's wait, or null. */
    LineWait first() { return byTarget.isEmpty() ? null : byTarget.first(); }

    /** The highest target's wait; the slot is not empty. */
    LineWait last() { return byTarget.last(); }

    boolean contains(LineWait w) { return byTarget.contains(w); }

    /** Holds {@code w}; false if held already. */
    boolean add(LineWait w) {
        boolean logged = arrivalsExact();
        if (!byTarget.add(w)) return false;
        if (logged) {
            try {
                arrivals.add(w);
            } catch (OutOfMemoryError e) {
                forgetArrivals(); // the log is a shortcut: without it the drain walks the tree, and nothing is lost
            }
        }
        return true;
    }

    /** Takes out the lowest target's wait, or returns null. */
    LineWait pollFirst() {
        LineWait w = byTarget.pollFirst();
        if (w != null) forgetArrivals();
        return w;
    }

    /** Drops {@code w}; false if not held. */
    boolean remove(LineWait w) {
        if (!byTarget.remove(w)) return false;
        forgetArrivals();
        return true;
    }

    /**
     * Moves every wait to {@code out}, in arrival order while the log is exact, else lowest target first,
     * and leaves the slot empty. Should the copy run out of memory, the slot keeps every wait.
     */
    void drainTo(ArrayList<LineWait> out) {
        out.addAll(arrivalsExact() ? arrivals : byTarget); // one copy of the log, or the tree's walk
        byTarget.clear();
        forgetArrivals();
    }

    /** Whether the log holds every wait (see the invariant). */
    private boolean arrivalsExact() { return arrivals.size() == byTarget.size(); }

    /** After a removal: the log is given up (an emptied slot's starts again exact: both sizes 0). */
    private void forgetArrivals() {
        int n = arrivals.size();
        arrivals.clear();
        if (n > KEEP_CAPACITY) arrivals.trimToSize(); // to the shared empty array: allocates nothing
    }
}
