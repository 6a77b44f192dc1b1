package dev.gpureactor.parker;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.util.List;

/**
 * A run of the waits one large scan found reached, settled on a carrier ({@code LineWatch}, "settle
 * on the carriers"): each wait's future moves by its own CAS, so a canceller or a platform joiner
 * racing the carrier is the same race as with the parker, and the part needs no order with the scan
 * beyond the pool's push of it (the lot's array and the waits' final fields are published by it).
 *
 * <p>Why parts: a scan settles a wait in 0.2–0.5 µs (the future's CAS, the joiner's unpark), most of
 * it cache misses on the future, the joiner and its thread. On the parker that is one core's work
 * while the other core's carriers wait for the first hand-over; on the carriers both cores settle, and
 * each woken thread then runs on the core that touched it (docs/SCALE.md, "Settling a large scan on
 * the carriers").
 *
 * @param lot  the scan's reached waits, in scan order (shared, read only, by every part of the lot)
 * @param from the first wait of this part
 * @param to   past its last
 */
record SettlePart(LineWait[] lot, int from, int to) implements Runnable {
    /** A scan that reached this many waits or more is settled on the carriers. */
    static final int FROM = 256;
    /** Waits one part settles, one carrier's batch of wakes: small enough that both carriers start at once. */
    static final int SIZE = 128;

    /** The parts of {@code reached}, {@link #SIZE} waits each (the last may be smaller), in order. */
    static Runnable[] split(List<LineWait> reached) {
        LineWait[] lot = reached.toArray(new LineWait[0]);
        Runnable[] parts = new Runnable[(lot.length + SIZE - 1) / SIZE];
        for (int i = 0; i < parts.length; i++) parts[i] = new SettlePart(lot, i * SIZE, Math.min(lot.length, (i + 1) * SIZE));
        return parts;
    }

    /**
     * Settles each wait of the part (a lost CAS means another move ended it first). A wait whose
     * settle throws (a virtual-machine error in its unpark) is failed, coded, if it is still pending,
     * and the rest are settled all the same; the first such throwable is rethrown at the end, for the
     * carrier's handler to report.
     */
    @Override
    public void run() {
        Throwable first = null;
        for (int i = from; i < to; i++) {
            LineWait w = lot[i];
            try {
                w.signal();
            } catch (Throwable t) {
                if (first == null) first = t;
                try {
                    w.fail(new ReactorException(ErrorCode.ParkerDied, t, w.descriptor().line().name(),
                            "settling a reached wait on a carrier threw " + t));
                } catch (Throwable alsoFailed) {
                    t.addSuppressed(alsoFailed); // the next waits are settled all the same
                }
            }
        }
        if (first instanceof Error e) throw e;
        if (first instanceof RuntimeException e) throw e;
        if (first != null) throw new IllegalStateException(first);
    }
}
