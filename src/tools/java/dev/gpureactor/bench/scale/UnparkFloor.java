package dev.gpureactor.bench.scale;

import dev.gpureactor.bench.ManyFutures;
import dev.gpureactor.loom.GpuReactor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/*
 * Implementation overview. The floor under the fan-out and many-waiters measures: the same shapes
 * with no reactor in the wake path. N virtual threads park with LockSupport.park on a volatile flag;
 * one platform thread (the caller, standing where a parker stands) sets the flag and unparks them
 * all in a loop. The time runs from just before the first unpark to the last of them running again
 * (fan-out, p50/p99 over rounds as ScaleBench.fanOut) or to a latch counted down by each (many
 * waiters, as ManyFutures' wake phase, the median of as many wakes). Run on two schedulers: the JDK's default one, and a default
 * reactor's CarrierPool (its startVirtualThread), so the table shows what unparking alone costs on
 * each, and how far the reactor's wake is from it.
 */

/** What unparking alone costs, without the reactor: the floor of {@code gar scale}'s fan-out and many waiters. */
final class UnparkFloor {
    private static final Duration GUARD = Duration.ofSeconds(120);

    private UnparkFloor() {}

    /** Where the virtual threads run: the JDK's default scheduler, or a default reactor's carrier pool. */
    enum Scheduler {
        JDK("jdk default"), CARRIER_POOL("carrier pool");

        final String label;

        Scheduler(String label) { this.label = label; }
    }

    /** Runs the fan-out ({@code waiters} x {@code rounds}, three unmeasured first) and each many-waiters size on {@code on}. */
    static ScaleRun.Floor run(Scheduler on, int waiters, int rounds, List<Integer> many) throws InterruptedException {
        try (GpuReactor r = GpuReactor.builder().build()) {
            ThreadFactory f = on == Scheduler.JDK ? Thread.ofVirtual().name("floor-vt-", 0).factory() : r.threadFactory();
            int carriers = on == Scheduler.JDK ? Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                    Runtime.getRuntime().availableProcessors()) : r.carriers().map(p -> p.size()).orElse(0);
            final int unmeasured = 3;
            long[] last = new long[rounds];
            for (int round = -unmeasured; round < rounds; round++) {
                long t = fanOut(f, waiters);
                if (round >= 0) last[round] = t;
            }
            Arrays.sort(last);
            List<ScaleRun.FloorMany> ms = new ArrayList<>();
            for (int n : many) {
                wakeAll(f, Math.min(n, 20_000)); // warm-up, as ManyFutures does
                long[] wakes = new long[ManyFutures.WAKES]; // the median of as many wakes as the reactor's
                for (int i = 0; i < wakes.length; i++) wakes[i] = wakeAll(f, n);
                ms.add(new ScaleRun.FloorMany(n, ManyFutures.median(wakes)));
            }
            return new ScaleRun.Floor(on.label, carriers, waiters, rounds, ScaleBench.percentile(last, 0.50),
                    ScaleBench.percentile(last, 0.99), last[rounds - 1], ms);
        }
    }

    /** A parked virtual thread's release: the flag it re-checks after each park (a spurious wake parks again). */
    private static final class Release {
        volatile boolean go;
    }

    /** One fan-out round: nanos from the first unpark to the last of {@code n} threads running. */
    private static long fanOut(ThreadFactory f, int n) throws InterruptedException {
        Release rel = new Release();
        long[] ran = new long[n];
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            int k = i;
            ts[i] = f.newThread(() -> {
                while (!rel.go) LockSupport.park();
                ran[k] = System.nanoTime();
            });
            ts[i].start();
        }
        awaitAllWaiting(ts);
        long t0 = System.nanoTime();
        rel.go = true; // release: each woken thread's acquire read of go sees it
        for (Thread t : ts) LockSupport.unpark(t);
        for (Thread t : ts) {
            if (!t.join(GUARD)) throw new IllegalStateException("floor fan-out: a thread stalled");
        }
        return Arrays.stream(ran).max().orElseThrow() - t0; // join orders each thread's ran[] write before this read
    }

    /** Many waiters: nanos from the first unpark until all {@code n} have run (each counts a latch down). */
    private static long wakeAll(ThreadFactory f, int n) throws InterruptedException {
        Release rel = new Release();
        CountDownLatch done = new CountDownLatch(n);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            ts[i] = f.newThread(() -> {
                while (!rel.go) LockSupport.park();
                done.countDown();
            });
            ts[i].start();
        }
        awaitAllWaiting(ts);
        long t0 = System.nanoTime();
        rel.go = true;
        for (Thread t : ts) LockSupport.unpark(t);
        if (!done.await(GUARD.toSeconds(), TimeUnit.SECONDS)) throw new IllegalStateException("floor: " + done.getCount() + " never ran");
        long wake = System.nanoTime() - t0;
        for (Thread t : ts) t.join(GUARD);
        return wake;
    }

    private static void awaitAllWaiting(Thread[] ts) throws InterruptedException {
        long end = System.nanoTime() + GUARD.toNanos();
        for (Thread t : ts) {
            while (t.getState() != Thread.State.WAITING) {
                if (System.nanoTime() - end > 0) throw new IllegalStateException("floor: a virtual thread never parked: " + t.getState());
                Thread.sleep(1);
            }
        }
    }
}
