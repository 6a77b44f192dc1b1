package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.parker.LineWatch;
import dev.gpureactor.parker.ReactorCounters;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A scan that reaches 256 waits or more hands them to the carriers in parts of 128 (what the
 * carriers do with the parts: {@code RunPartsTest}), single-threaded on a manual clock: the test
 * plays the device, the runner and the carriers (it runs the parts when it likes). The parts cover
 * every reached wait once, in the scan's order; the scan itself settles none of them; the estimator
 * learns what it would have learnt from the scan settling them; a refused hand-over and a smaller
 * scan are settled by the scan.
 */
class LargeScanTest {
    final CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "t", () -> { });
    final ManualClock clock = new ManualClock();
    final List<Runnable[]> handed = new ArrayList<>();
    long ids;

    LineWatch watch(PointTable<Object> points, ReactorCounters counters, Consumer<Runnable[]> parts) {
        return new LineWatch(line, LineWatchTest.PLAN, points, clock, w -> { }, counters, 0, parts);
    }

    /** {@code n} waits on slots 0 and 1 (targets 1, 2, ... on each), of point "p", started now. */
    List<GpuFuture<Void>> waits(LineWatch watch, ReactorCounters counters, int n) {
        List<GpuFuture<Void>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            counters.registered();
            GpuFuture<Void> f = new GpuFuture<>(++ids, new MemoryDescriptor(line, Slot.of(i % 2), i / 2 + 1),
                    LineWatchTest.neverDone(), null, Runnable::run, clock.nanos(), clock.nanos(), 0, "p");
            watch.add(f.lineWait);
            fs.add(f);
        }
        return fs;
    }

    void storeAll(int n) {
        line.store(Slot.of(0), (n + 1) / 2);
        line.store(Slot.of(1), n / 2);
    }

    /** {@link #waits} registered on {@code watch}, then all stored and one turn: the scan under test. */
    List<GpuFuture<Void>> scanned(LineWatch watch, ReactorCounters counters, int n) {
        watch.snapshot();
        List<GpuFuture<Void>> fs = waits(watch, counters, n);
        storeAll(n);
        watch.snapshot();
        watch.next(false, false);
        return fs;
    }

    static long pending(List<GpuFuture<Void>> fs) {
        return fs.stream().filter(f -> f.rawState() == GpuFuture.PENDING).count();
    }

    @Test
    void a_scan_of_fewer_than_256_reached_waits_settles_them_itself() {
        ReactorCounters counters = new ReactorCounters();
        LineWatch watch = watch(new PointTable<>(), counters, handed::add);
        List<GpuFuture<Void>> fs = scanned(watch, counters, 255);
        assertEquals(List.of(), handed, "nothing handed over");
        assertEquals(0, pending(fs));
        assertEquals(255, counters.counts().woke());
    }

    @Test
    void a_scan_of_256_reached_waits_or_more_hands_them_over_in_parts_of_128_in_scan_order_and_settles_none() {
        ReactorCounters counters = new ReactorCounters();
        LineWatch watch = watch(new PointTable<>(), counters, handed::add);
        List<GpuFuture<Void>> fs = scanned(watch, counters, 300);
        assertEquals(1, handed.size(), "one hand-over for the scan");
        Runnable[] parts = handed.getFirst();
        assertEquals(3, parts.length, "300 waits in parts of 128");
        assertEquals(300, pending(fs), "the scan settles none of the waits it hands over");
        assertEquals(0, watch.waiting(), "the watch holds none of them any more");
        assertEquals(300, counters.counts().woke(), "counted as they are handed over");
        // The scan's order: slot 0 from its lowest target up, then slot 1.
        List<GpuFuture<Void>> scanOrder = new ArrayList<>();
        for (int slot = 0; slot < 2; slot++) for (GpuFuture<Void> f : fs) if (f.descriptor().slot().index() == slot) scanOrder.add(f);
        for (int p = 0; p < parts.length; p++) {
            parts[p].run();
            int settled = Math.min(300, (p + 1) * 128);
            for (int i = 0; i < 300; i++) {
                assertEquals(i < settled ? GpuFuture.COMPLETED : GpuFuture.PENDING, scanOrder.get(i).rawState(),
                        "after part " + p + ", wait " + i + " of the scan's order");
            }
        }
    }

    @Test
    void the_estimator_learns_from_a_scan_handed_over_what_it_learns_from_a_scan_settled_in_place() {
        PointTable<Object> handedPoints = new PointTable<>(), inPlacePoints = new PointTable<>();
        ReactorCounters c1 = new ReactorCounters(), c2 = new ReactorCounters();
        LineWatch handing = watch(handedPoints, c1, handed::add), inPlace = watch(inPlacePoints, c2, null);
        handing.snapshot();
        inPlace.snapshot();
        List<GpuFuture<Void>> a = waits(handing, c1, 300), b = waits(inPlace, c2, 300);
        clock.advance(3_000_000L);
        storeAll(300);
        handing.snapshot();
        handing.next(false, false);
        inPlace.snapshot();
        inPlace.next(false, false);
        for (Runnable part : handed.getFirst()) part.run();
        assertEquals(0, pending(a) + pending(b));
        assertTrue(inPlacePoints.sleepNanos("p", LineWatchTest.PLAN.predict().orElseThrow()).isPresent(), "the point learnt");
        assertEquals(inPlacePoints.sleepNanos("p", LineWatchTest.PLAN.predict().orElseThrow()),
                handedPoints.sleepNanos("p", LineWatchTest.PLAN.predict().orElseThrow()));
    }

    @Test
    void a_wait_cancelled_before_its_part_runs_stays_cancelled_and_the_rest_complete() {
        ReactorCounters counters = new ReactorCounters();
        LineWatch watch = watch(new PointTable<>(), counters, handed::add);
        List<GpuFuture<Void>> fs = scanned(watch, counters, 256);
        assertTrue(fs.get(7).cancel(false), "the cancel wins the future before the carriers do");
        for (Runnable part : handed.getFirst()) part.run();
        assertTrue(fs.get(7).isCancelled());
        assertEquals(255, fs.stream().filter(f -> f.rawState() == GpuFuture.COMPLETED).count());
    }

    @Test
    void a_hand_over_the_pool_refuses_is_settled_by_the_scan() {
        ReactorCounters counters = new ReactorCounters();
        LineWatch watch = watch(new PointTable<>(), counters, parts -> { throw new RejectedExecutionException("retired"); });
        List<GpuFuture<Void>> fs = scanned(watch, counters, 256);
        assertEquals(0, pending(fs), "the refused parts ran on the scan's own thread");
        assertEquals(256, counters.counts().woke());
    }

    @Test
    void a_wait_whose_settle_throws_is_failed_coded_and_the_rest_of_its_part_still_settle() {
        ReactorCounters counters = new ReactorCounters();
        LineWatch watch = watch(new PointTable<>(), counters, handed::add);
        watch.snapshot();
        List<GpuFuture<Void>> fs = waits(watch, counters, 299);
        ThrowingWait bad = new ThrowingWait(++ids, new MemoryDescriptor(line, Slot.of(0), 1), LineWatchTest.neverDone());
        watch.add(bad); // the head of slot 0: the first wait of the first part
        storeAll(300);
        watch.snapshot();
        watch.next(false, false);
        Runnable first = handed.getFirst()[0];
        IllegalStateException thrown = assertThrows(IllegalStateException.class, first::run, "the part reports the failure");
        assertEquals("an unpark's failure", thrown.getMessage());
        for (Runnable part : handed.getFirst()) if (part != first) part.run();
        assertEquals(0, pending(fs), "the other waits settled");
        assertEquals(ErrorCode.ParkerDied, bad.failedWith.code());
        assertTrue(bad.failedWith.getMessage().contains("settling a reached wait on a carrier threw"), bad.failedWith.getMessage());
    }

    /** A wait whose settle throws, as an unpark out of memory would; it records how it was failed. */
    static final class ThrowingWait extends LineWait {
        ReactorException failedWith;

        ThrowingWait(long id, MemoryDescriptor d, CompletionPort port) {
            super(id, d, port, 0, 0, 0, LineWait.NO_PREDICTION, null, null, null);
        }

        @Override public boolean signal() { throw new IllegalStateException("an unpark's failure"); }
        @Override public boolean fail(ReactorException error) {
            if (failedWith != null) return false;
            failedWith = error;
            return true;
        }
        @Override public boolean isPending() { return failedWith == null; }
    }
}
