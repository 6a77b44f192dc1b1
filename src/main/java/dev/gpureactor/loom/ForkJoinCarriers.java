package dev.gpureactor.loom;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * Carriers of a {@link ForkJoinPool} in async (FIFO) mode ({@link CarrierPolicy#FORK_JOIN}), built
 * as the JDK builds its own virtual-thread scheduler ({@code VirtualThread.createDefaultScheduler}):
 * a queue per carrier, so a virtual thread woken on a carrier is pushed to that carrier's own queue
 * and runs next on the core that woke it; idle carriers steal, then park with the pool's own
 * spin-then-park. Unlike the JDK's pool, it does not grow past its parallelism by itself (ours are
 * not the JDK's {@code CarrierThread}s, which the JDK compensates for some blocking): the
 * {@link CarrierWatch} grows it for carriers blocked while pinned or in the OS ({@link #compensate}).
 *
 * <p>Each task is wrapped in one {@link ForkJoinTask} (the pool wraps a plain {@code Runnable} in one
 * anyway) that runs it through {@link CarrierPool#runTask}, which counts it done in the running
 * carrier's own {@link CarrierTally}.
 *
 * <p><b>Tallies.</b> The pool's carriers come and go (an idle one leaves after 30 s and a new one is
 * made on demand), so a tally is not a carrier's for life: a new carrier takes a spare tally (or a
 * new one, listed in {@link #tallies}), and a leaving carrier puts its tally back in its last act. The
 * spare queue orders the leaving owner's writes before the next owner's, so each tally still has
 * one writer at a time; counts survive the carriers, and the list holds at most as many tallies as
 * carriers ever ran at once.
 */
final class ForkJoinCarriers implements Carriers {
    private final CarrierPool pool;
    private final ForkJoinPool forkJoin;
    private final int size;
    private final long startNanos = System.nanoTime();
    private final AtomicInteger names = new AtomicInteger();
    /** Every tally ever made, for the stats readers; appended only when no spare is left (rare). */
    private final List<CarrierTally> tallies = new CopyOnWriteArrayList<>();
    /** Tallies of carriers that left, for the next new carrier. */
    private final Queue<CarrierTally> spareTallies = new ConcurrentLinkedQueue<>();
    /** The carriers alive now: each adds itself as it starts and removes itself as it ends (the watch's view). */
    private final List<Carrier> live = new CopyOnWriteArrayList<>();
    /** Carriers beyond {@link #size} the watch asked for last; watch thread only. */
    private int extra;
    /** Submitted after the parallelism grows, so that the pool makes the new carrier at once (its signal does). */
    private static final Runnable NUDGE = () -> { };

    ForkJoinCarriers(CarrierPool pool, int size) {
        this.pool = pool;
        this.size = size;
        ForkJoinPool.ForkJoinWorkerThreadFactory factory =
                fj -> new Carrier(fj, "gar-carrier-" + names.getAndIncrement(), takeTally(), spareTallies, live);
        // parallelism = size, corePoolSize 0, max = size, minRunnable 1, saturate rather than throw,
        // idle carriers leave after 30 s (and return on demand), as the JDK's scheduler.
        this.forkJoin = new ForkJoinPool(size, factory, (t, e) -> { }, true, 0, size, 1, fj -> true, 30, TimeUnit.SECONDS);
    }

    /** A spare tally, or a new one listed for the readers. */
    private CarrierTally takeTally() {
        CarrierTally t = spareTallies.poll(); // acquire: the last owner's counts are seen
        if (t == null) {
            t = new CarrierTally();
            tallies.add(t);
        }
        return t;
    }

    /** A carrier: daemon, the system class loader, no inherited thread locals (as the JDK's carriers). */
    private static final class Carrier extends ForkJoinWorkerThread {
        /** Written by this carrier only, from its start (Thread.start orders the handing over) to its end. */
        final CarrierTally tally;
        private final Queue<CarrierTally> spares;
        private final List<Carrier> live;

        Carrier(ForkJoinPool fj, String name, CarrierTally tally, Queue<CarrierTally> spares, List<Carrier> live) {
            super(null, fj, false);
            this.tally = tally;
            this.spares = spares;
            this.live = live;
            setName(name);
            setDaemon(true);
            setContextClassLoader(ClassLoader.getSystemClassLoader());
        }

        @Override
        protected void onStart() {
            tally.owned(); // before the watch can see this carrier
            live.add(this);
        }

        @Override
        protected void onTermination(Throwable exception) {
            live.remove(this);
            spares.offer(tally); // release: this carrier's last counts, before the next owner's first
        }
    }

    /** One admitted task: counted done by {@link CarrierPool#runTask} whatever it throws. */
    private static final class Run extends ForkJoinTask<Void> {
        private final CarrierPool pool;
        private final Runnable task;

        Run(CarrierPool pool, Runnable task) {
            this.pool = pool;
            this.task = task;
        }

        @Override
        public Void getRawResult() { return null; }

        @Override
        protected void setRawResult(Void v) { }

        @Override
        protected boolean exec() {
            // Only the pool's workers run its tasks (nothing joins them); null would count it under a lock.
            pool.runTask(task, Thread.currentThread() instanceof Carrier c ? c.tally : null);
            return true;
        }
    }

    @Override
    public void push(Runnable task) {
        Run run = new Run(pool, task);
        // Called on one of our carriers itself (no virtual thread mounted), the task is the thread that
        // just left it: a yield, or a park that found its permit. Pushed to this carrier's own queue it
        // would run again at once, ahead of every thread woken from outside (the parkers' wakes, the
        // JDK's unparker): gar demo's CPU-bound thread, yielding every 10 us, held the woken joiners back
        // for milliseconds. As the JDK's own scheduler does (VirtualThread.afterYield), it goes behind
        // the submissions when this carrier has nothing else queued.
        if (Thread.currentThread() instanceof Carrier c && c.getPool() == forkJoin && c.getQueuedTaskCount() == 0) {
            forkJoin.externalSubmit(run);
        } else {
            forkJoin.execute(run); // from a virtual thread on a carrier: its own queue; from elsewhere: a submission queue
        }
    }

    @Override
    public void retire() {
        forkJoin.shutdown(); // nothing is queued (the pool's ctl says so); idle workers leave
    }

    @Override
    public boolean awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
        return forkJoin.awaitTermination(timeout, unit);
    }

    @Override
    public int size() { return size; }

    @Override
    public boolean isCarrier(Thread t) { return t instanceof Carrier c && c.getPool() == forkJoin; }

    /** Carrier time not spent running tasks: the pool's wall time times its parallelism, less the busy time. */
    @Override
    public long idleNanos() {
        return Math.max(0, (System.nanoTime() - startNanos) * size - pool.busyNanos());
    }

    @Override
    public Iterable<CarrierTally> tallies() { return tallies; }

    @Override
    public void forEachCarrier(BiConsumer<Thread, CarrierTally> each) {
        for (Carrier c : live) each.accept(c, c.tally);
    }

    /**
     * The pool's parallelism becomes {@code size + extra}. A larger one takes effect at the pool's
     * next signal, which the nudge's submission gives at once: a new carrier starts and takes the
     * queued tasks (it steals from the blocked carrier's own queue too). A smaller one leaves the
     * extra carriers to run out of work and leave after their keep-alive, as idle carriers do.
     */
    @Override
    public void compensate(int extra) {
        if (extra == this.extra) return;
        boolean grows = extra > this.extra;
        this.extra = extra;
        forkJoin.setParallelism(size + extra);
        if (grows) {
            try {
                forkJoin.execute(NUDGE);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // retired meanwhile: nothing is left to run
            }
        }
    }

    int queued() { return (int) Math.min(Integer.MAX_VALUE, forkJoin.getQueuedSubmissionCount() + forkJoin.getQueuedTaskCount()); }
}
