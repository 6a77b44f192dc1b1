package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;

import java.lang.foreign.Arena;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The real library objects the jcstress tests run against, built the way the reactor builds them,
 * minus the threads: the test's actors play the parker, the device and the waiters.
 *
 * <p>A line's memory comes from an automatic arena, so the millions of states a run makes are
 * freed by the collector (a line from {@link CompletionLine#allocate()} holds a shared arena until
 * it is closed).
 */
final class Rig {
    private Rig() { }

    /** A port that is never done and never fails; with the rig's still clock the parker never queries it. */
    static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { throw new UnsupportedOperationException("never done"); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    /** A fresh, all-zero line over GC-managed off-heap memory. */
    static CompletionLine line() {
        return CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "jcstress", () -> { });
    }

    /**
     * A parker with no thread: the test calls {@link LineParker#step} and
     * {@link LineParker#announceSleep} itself. Its clock stands still at 0, so no backstop falls
     * due and no deadline sleep is planned: every turn with waiters ends in a park on the line.
     */
    static LineParker parker(CompletionLine line) {
        return new LineParker(line, (l, snapshot, bound, spin) -> { }, new WaitPlan.FlagWait(100_000, 1_000_000, Optional.empty()),
                new PointTable<>(), new ManualClock(), w -> { }, new ReactorCounters(), 0, null);
    }

    /** A future's state as the tests report it: 0 pending, 1 completed, 2 anything else. */
    static int settled(GpuFuture<?> f) {
        int s = f.rawState();
        return s == GpuFuture.PENDING ? 0 : s == GpuFuture.COMPLETED ? 1 : 2;
    }

    /** A wait on {@code line[slot] >= target}, as {@code GpuReactor.await} makes it (cold point: wake at start). */
    static <T> GpuFuture<T> future(CompletionLine line, int slot, long target, Supplier<? extends T> readback) {
        return new GpuFuture<>(1, new MemoryDescriptor(line, Slot.of(slot), target), NEVER, readback, Runnable::run, 0, 0, null);
    }
}
