package dev.gpureactor.bench;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Many futures waiting at once, on a reactor with the default settings: what one waiting future
 * costs in heap beyond its virtual thread, and how fast a reactor wakes all of them.
 *
 * <ol>
 *   <li>Baseline: {@code n} virtual threads on the reactor's carriers, each parked plainly
 *       ({@code LockSupport.park}); heap after GC, minus the heap before them.
 *   <li>Futures: {@code n} virtual threads, each awaiting its own descriptor (slot {@code i mod 8*lines}
 *       of the lines (four by default), target {@code i / 32 + 1}) and joining it; heap after GC, minus the heap
 *       before them. The difference of the two, per future, is what a waiting future costs beyond
 *       its virtual thread: the future, its descriptor and port, the joiner node, the parker's
 *       index entry, and the deeper stack of {@code join}.
 *   <li>Wake: the "device" (this thread) stores every slot's last target at once; the time until
 *       the last joiner runs again gives completions per second. The futures phase runs {@link #WAKES}
 *       times (the heap is measured in the first) and the median wake is reported: one wake's time
 *       moves with the machine by more than the goals judged on it.
 * </ol>
 */
public final class ManyFutures {
    /** Lines of the default run ({@code gar bench}); {@code gar scale} asks for eight. */
    private static final int LINES = 4;
    private static final Duration GUARD = Duration.ofSeconds(120);
    /**
     * Wakes of all the futures per run, the median reported (the floor in {@code gar scale} takes as many). Seven,
     * not three: one warm wake of 10,000 floor threads on the JDK's scheduler ranged 1.6–12 ms within one JVM, and
     * three-wake medians of the same code met or missed the wake issue's goals from one run to the next
     * (docs/SCALE.md, "Seven wakes, not three").
     */
    public static final int WAKES = 7;

    private ManyFutures() {}

    /** Runs the three phases with {@code n} futures; {@code progress} hears each phase's name. */
    public static ManyResult run(int n, Knobs knobs, Consumer<String> progress) throws InterruptedException {
        return run(n, LINES, knobs, progress);
    }

    /** As {@link #run(int, Knobs, Consumer)}, the futures spread over {@code lines} lines (8 slots each). */
    public static ManyResult run(int n, int lines, Knobs knobs, Consumer<String> progress) throws InterruptedException {
        if (lines < 1) throw new IllegalArgumentException("lines must be >= 1: " + lines);
        if (n < 1) throw new IllegalArgumentException("futures must be >= 1: " + n);
        GpuReactor.Builder b = GpuReactor.builder();
        knobs.parkSpinNanos().ifPresent(v -> b.parkSpin(Duration.ofNanos(v)));
        knobs.carriers().ifPresent(b::carriers);
        if (knobs.marginMicros().isPresent()) b.plan(knobs.defaultPlan());
        try (GpuReactor r = b.build()) {
            progress.accept("warm-up");
            // Both paths compiled before measuring: an interpreted frame frozen into a parked virtual
            // thread's stack chunk is larger than a compiled one, and would skew the difference.
            for (int i = 0; i < 3; i++) {
                baselinePhase(r, Math.min(n, 20_000), false);
                futuresPhase(r, Math.min(n, 20_000), lines, null, false);
            }
            progress.accept("baseline: " + n + " parked virtual threads");
            long[] base = baselinePhase(r, n, true);
            progress.accept(n + " waiting futures, " + WAKES + " wakes");
            long[] fut = new long[3];
            long[] wakes = new long[WAKES];
            futuresPhase(r, n, lines, fut, true);
            wakes[0] = fut[2];
            for (int i = 1; i < WAKES; i++) {
                long[] again = new long[3];
                futuresPhase(r, n, lines, again, false);
                wakes[i] = again[2];
            }
            fut[2] = median(wakes);
            long quietBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (r.registrations() != 0 && System.nanoTime() - quietBy < 0) Thread.sleep(5);
            double perVt = (double) (base[1] - base[0]) / n;
            double perFuture = (double) ((fut[1] - fut[0]) - (base[1] - base[0])) / n;
            double wakeMs = fut[2] / 1e6;
            return new ManyResult(n, lines, perVt, perFuture, wakeMs, n / (fut[2] / 1e9), r.registrations());
        }
    }

    /** {heap before, heap with n plainly parked virtual threads}, when {@code measure}. */
    private static long[] baselinePhase(GpuReactor r, int n, boolean measure) throws InterruptedException {
        Thread[] ts = new Thread[n];
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(n);
        long before = measure ? heapAfterGc() : 0;
        for (int i = 0; i < n; i++) {
            ts[i] = r.startVirtualThread(() -> {
                started.countDown();
                while (!release.get()) LockSupport.park();
            });
        }
        await(started);
        awaitAllWaiting(ts);
        long with = measure ? heapAfterGc() : 0;
        release.set(true);
        for (Thread t : ts) LockSupport.unpark(t);
        for (Thread t : ts) t.join(GUARD);
        return new long[] {before, with};
    }

    /** The median of {@code v} (sorted in place). */
    public static long median(long[] v) {
        Arrays.sort(v);
        return v[v.length / 2];
    }

    /**
     * Runs n joiners to completion; with {@code out}, fills {heap before, heap while waiting, wake-all
     * nanos}, the heap figures only when {@code heap} (else 0: no GC before the wake).
     */
    private static void futuresPhase(GpuReactor r, int n, int lineCount, long[] out, boolean heap) throws InterruptedException {
        CompletionLine[] lines = new CompletionLine[lineCount];
        for (int i = 0; i < lineCount; i++) lines[i] = CompletionLine.allocate();
        try {
            CountDownLatch started = new CountDownLatch(n);
            CountDownLatch done = new CountDownLatch(n);
            long before = heap ? heapAfterGc() : 0;
            Thread[] ts = startJoiners(r, lines, n, started, done);
            awaitRegistered(r, ts, started);
            long with = heap ? heapAfterGc() : 0;
            long t0 = System.nanoTime();
            storeLast(lines, n);
            await(done);
            long wake = System.nanoTime() - t0;
            for (Thread t : ts) t.join(GUARD);
            if (out != null) {
                out[0] = before;
                out[1] = with;
                out[2] = wake;
            }
        } finally {
            for (CompletionLine l : lines) l.close();
        }
    }

    /**
     * Starts {@code n} virtual threads of {@code r}, thread {@code i} awaiting its own descriptor on slot
     * {@code i mod slots} of {@code lines} (their slots in order), target {@code i / slots + 1}, and joining
     * it; each counts {@code started} down once it awaits and {@code done} once it runs again.
     */
    static Thread[] startJoiners(GpuReactor r, CompletionLine[] lines, int n, CountDownLatch started, CountDownLatch done) {
        int slots = lines.length * CompletionLine.WORDS;
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            CompletionLine line = lines[(i % slots) / CompletionLine.WORDS];
            Slot slot = Slot.of(i % CompletionLine.WORDS);
            long target = i / slots + 1;
            ts[i] = r.startVirtualThread(() -> {
                MemoryDescriptor d = new MemoryDescriptor(line, slot, target);
                GpuFuture<Void> f = r.await(d, new BenchDevice.WordPort(d));
                started.countDown();
                f.join();
                done.countDown();
            });
        }
        return ts;
    }

    /** Waits until the joiners of {@link #startJoiners} all await, are parked, and their parkers took them in. */
    static void awaitRegistered(GpuReactor r, Thread[] ts, CountDownLatch started) throws InterruptedException {
        await(started);
        awaitAllWaiting(ts);
        long quietBy = System.nanoTime() + GUARD.toNanos();
        while (r.registrations() < ts.length && System.nanoTime() - quietBy < 0) Thread.sleep(5);
        Thread.sleep(50); // let each parker drain its inbox into its slot index
    }

    /** The device's wake of {@link #startJoiners}' {@code n} joiners: every slot of {@code lines} stored with its last target at once. */
    static void storeLast(CompletionLine[] lines, int n) {
        long last = (n - 1) / (lines.length * CompletionLine.WORDS) + 1;
        for (CompletionLine l : lines) for (int s = 0; s < CompletionLine.WORDS; s++) l.store(Slot.of(s), last);
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(GUARD.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("many-futures phase stalled: " + latch.getCount() + " left after " + GUARD);
        }
    }

    /** Waits until every one of {@code ts} is parked ({@code WAITING}). */
    static void awaitAllWaiting(Thread[] ts) throws InterruptedException {
        long end = System.nanoTime() + GUARD.toNanos();
        for (Thread t : ts) {
            while (t.getState() != Thread.State.WAITING) {
                if (System.nanoTime() - end > 0) throw new IllegalStateException("a virtual thread never parked: " + t.getState());
                Thread.sleep(1);
            }
        }
    }

    /** Heap in use after full collections (System.gc() is a full, stop-the-world collection with G1 by default). */
    static long heapAfterGc() throws InterruptedException {
        MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
            used = Math.min(used, mx.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
