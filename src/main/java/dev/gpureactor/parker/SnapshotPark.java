package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import dev.gpureactor.park.FallbackPark;
import dev.gpureactor.park.WordWait;

import java.util.List;
import java.util.Optional;

/**
 * How a parker waits on its lines between scans (not {@link dev.gpureactor.park.LinePark}, the
 * predicate park it is built on): waits until any word of the given watches' lines differs from that
 * watch's snapshot, the bound passes, or (without a hardware park) an unpark arrives, whichever is
 * first. It may return early; it is always bounded.
 *
 * <p><b>Several lines.</b> The fallback park polls every word of every line it is given at each
 * spin step and at the end of each slice, so one thread's slice wakes serve any number of lines. A
 * hardware monitor arms one 64-byte line: {@link #oneLine()} says so, and the parker then hands it
 * the one busy watch when exactly one is busy; given several, it too polls them in fallback slices.
 * The lines a call watches are the ones the parker publishes as armed (see {@code ParkerInbox}).
 *
 * <p>{@code spinNanos} is how much of the bound the parker is willing to burn spinning: non-zero
 * only around a predicted completion, where a spinning waiter sees a store in well under a
 * microsecond and a sleeping one costs tens. The hardware park ignores it (it sleeps in the core
 * and wakes on the store itself).
 */
@FunctionalInterface
public interface SnapshotPark {
    /**
     * Parks on {@code watches} (at least one), each against its own snapshot.
     *
     * @return the wall time it spent spinning (at most {@code spinNanos}; 0 for a hardware park): the
     *         parker books it as its spin phase
     */
    long park(List<LineWatch> watches, long boundNanos, long spinNanos);

    /** Whether this park arms one line only when given one (a hardware monitor); false: it polls all it is given. */
    default boolean oneLine() { return false; }

    /** The probed hardware word wait where there is one (for one line), else {@link FallbackPark} slices of {@code sliceNanos}. */
    static SnapshotPark of(Optional<WordWait> hardware, long sliceNanos) {
        FallbackPark sleepOnly = new FallbackPark(0, sliceNanos);
        SnapshotPark fallback = (watches, bound, spin) -> {
            if (spin <= 0) {
                sleepOnly.park(watches.getFirst().line(), l -> differs(watches), bound);
                return 0;
            }
            long start = System.nanoTime();
            new FallbackPark(spin, sliceNanos).park(watches.getFirst().line(), l -> differs(watches), bound);
            return Math.min(spin, System.nanoTime() - start); // the spin comes first: past it, the park slept
        };
        if (hardware.isEmpty()) return fallback;
        WordWait w = hardware.get();
        return new SnapshotPark() {
            @Override
            public long park(List<LineWatch> watches, long bound, long spin) {
                if (watches.size() != 1) return fallback.park(watches, bound, spin); // a monitor arms one line
                LineWatch only = watches.getFirst();
                long[] snapshot = only.snapshotWords();
                w.park(only.line(), l -> differs(l, snapshot), bound);
                return 0;
            }

            @Override
            public boolean oneLine() { return true; }
        };
    }

    /** Whether a word of any watch's line differs from that watch's snapshot (acquire loads). */
    static boolean differs(List<LineWatch> watches) {
        for (int i = 0; i < watches.size(); i++) {
            LineWatch w = watches.get(i);
            if (differs(w.line(), w.snapshotWords())) return true;
        }
        return false;
    }

    static boolean differs(CompletionLine line, long[] snapshot) {
        for (int i = 0; i < snapshot.length; i++) {
            if (line.word(Slot.of(i)) != snapshot[i]) return true;
        }
        return false;
    }
}
