package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;

import java.util.concurrent.locks.LockSupport;

/**
 * The pure-Java line park: spin with {@link Thread#onSpinWait()} for the spin it is given, then sleep
 * in {@link LockSupport#parkNanos} slices, re-reading the line between them. Bounded by the bound;
 * an unpark of the parker ends a slice early.
 */
record FallbackLinePark(long sliceNanos) implements LinePark {
    @Override
    public void park(CompletionLine line, long[] snapshot, long boundNanos, long spinNanos) {
        long start = System.nanoTime();
        long end = start + boundNanos;
        long spinEnd = start + Math.min(spinNanos, boundNanos);
        while (System.nanoTime() - spinEnd < 0) {
            if (changed(line, snapshot)) return;
            Thread.onSpinWait();
        }
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            if (changed(line, snapshot)) return;
            LockSupport.parkNanos(Math.min(left, sliceNanos));
        }
    }

    private static boolean changed(CompletionLine line, long[] snapshot) {
        for (int i = 0; i < snapshot.length; i++) {
            if (line.word(Slot.of(i)) != snapshot[i]) return true;
        }
        return false;
    }
}
