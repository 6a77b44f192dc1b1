package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import dev.gpureactor.park.FallbackPark;
import dev.gpureactor.park.WordWait;

import java.util.Optional;

/**
 * How a parker waits on its line between scans (not {@link dev.gpureactor.park.LinePark}, the
 * predicate park it is built on): waits until any word differs from {@code snapshot}, the
 * bound passes, or (without a hardware park) an unpark arrives, whichever is first. It may return
 * early; it is always bounded.
 *
 * <p>{@code spinNanos} is how much of the bound the parker is willing to burn spinning: non-zero
 * only around a predicted completion, where a spinning waiter sees a store in well under a
 * microsecond and a sleeping one costs tens. The hardware park ignores it (it sleeps in the core
 * and wakes on the store itself).
 */
@FunctionalInterface
interface SnapshotPark {
    void park(CompletionLine line, long[] snapshot, long boundNanos, long spinNanos);

    /** The probed hardware word wait where there is one, else {@link FallbackPark} slices of {@code sliceNanos}. */
    static SnapshotPark of(Optional<WordWait> hardware, long sliceNanos) {
        if (hardware.isPresent()) {
            WordWait w = hardware.get();
            return (line, snapshot, bound, spin) -> w.park(line, l -> differs(l, snapshot), bound);
        }
        FallbackPark sleepOnly = new FallbackPark(0, sliceNanos);
        return (line, snapshot, bound, spin) ->
                (spin > 0 ? new FallbackPark(spin, sliceNanos) : sleepOnly).park(line, l -> differs(l, snapshot), bound);
    }

    static boolean differs(CompletionLine line, long[] snapshot) {
        for (int i = 0; i < snapshot.length; i++) {
            if (line.word(Slot.of(i)) != snapshot[i]) return true;
        }
        return false;
    }
}
