package dev.gpureactor.carrier;

import jdk.internal.misc.CarrierThread;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The carriers: a {@link ForkJoinPool} in async (FIFO) mode built as the JDK builds its own
 * virtual-thread scheduler ({@code VirtualThread.createDefaultScheduler}), with the JDK's own carrier
 * class. A queue per carrier, so a virtual thread woken on a carrier is pushed to that carrier's
 * own queue and runs next on the core that woke it; idle carriers steal, then park with the pool's
 * own spin-then-park, and leave after {@link #KEEP_ALIVE} idle (returning on demand).
 *
 * <p><b>Compensation.</b> Each carrier is a {@code jdk.internal.misc.CarrierThread}
 * ({@link CarrierThreads}), so a blocking call the JDK wraps ({@code Blocker}: file and pipe I/O,
 * {@code Process.waitFor}, {@code Object.wait}) starts or activates a spare carrier at once, exactly
 * as on the JDK's scheduler, and gives it back when the call returns. The {@link CarrierWatch}
 * compensates what the JDK does not wrap (pinned blocks, unwrapped blocking calls) through the same
 * pool methods ({@link #beginBlock}, {@link #endBlock}). Both count against one bound, the pool's
 * maximum size ({@link SchedulerProperties#maxPoolSize}: {@code jdk.virtualThreadScheduler.maxPoolSize}, as the JDK's);
 * past it the pool saturates quietly rather than throwing, as the JDK's does.
 *
 * <p><b>Continuations the JDK hands straight to the pool.</b> When the carrier is a
 * {@code CarrierThread} with an empty queue, the JDK submits some continuations to the carrier's own
 * pool instead of the thread's scheduler (a yield, a park that found its permit, a monitor released
 * while blocking: {@code VirtualThread.lazySubmitRunContinuation} and {@code afterYield}, through the
 * pool's public {@code lazySubmit} and {@code externalSubmit}). {@link CarrierForkJoinPool} overrides
 * those two and sends each such continuation through {@link CarrierPool#admitHandedOver} and the same
 * {@link Run} wrapper as every other task, so the ctl word, the tallies and the watch see every task a
 * carrier runs.
 *
 * <p>Each admitted task is wrapped in one {@link ForkJoinTask} (the pool wraps a plain
 * {@code Runnable} in one anyway) that runs it through {@link CarrierPool#runTask}, which counts it
 * done in the running carrier's own {@link CarrierTally}.
 *
 * <p><b>Tallies.</b> Carriers come and go, so a tally is not a carrier's for life: a new carrier
 * takes a spare tally (or a new one, listed in {@link #tallies}), and a leaving carrier puts its tally
 * back in its last act. The spare queue orders the leaving owner's writes before the next owner's,
 * so each tally has one writer at a time; counts survive the carriers, and the list holds at most as
 * many tallies as carriers ever ran at once.
 */
final class ForkJoinCarriers implements Carriers {
    /** How long an idle carrier stays before it leaves, as the JDK's scheduler. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(30);

    private final CarrierPool pool;
    private final CarrierForkJoinPool forkJoin;
    private final int size;
    private final long startNanos = System.nanoTime();
    private final AtomicInteger names = new AtomicInteger();
    /** Every tally ever made, for the stats readers; appended only when no spare is left (rare). */
    private final List<CarrierTally> tallies = new CopyOnWriteArrayList<>();
    /** Tallies of carriers that left, for the next new carrier. */
    private final Queue<CarrierTally> spareTallies = new ConcurrentLinkedQueue<>();
    /** The carriers alive now: each adds itself as it starts and removes itself as it ends (the watch's view). */
    private final List<Carrier> live = new CopyOnWriteArrayList<>();
    /** Every carrier started and not yet ended, to join at the exit (a carrier leaves {@link #live} before its thread ends). */
    private final OwnThreads threads = new OwnThreads();
    /** What each carrier runs between two tasks, or null ({@link CarrierPool#betweenTasks}). */
    private volatile Runnable look;
    /**
     * Blocks compensated now, the JDK's ({@link Carrier#beginBlocking}) and the watch's ({@link #beginBlock}):
     * each has a spare carrier running in for its blocked one ({@link #running}). Updated by an atomic add
     * on the rare begin and end of a compensated block; read opaquely on every parker turn
     * ({@link CarrierPool#backlogged}): a reader needs no order with anything else, and a stale count only
     * misjudges the backlog for that turn (a parker wakes early once, or hosts once more).
     */
    private final AtomicInteger compensated = new AtomicInteger();

    /**
     * @param size      the parallelism: carriers running at once when none blocks
     * @param maxSize   carriers at most, the compensating ones included
     * @param keepAlive how long an idle carrier stays
     */
    ForkJoinCarriers(CarrierPool pool, int size, int maxSize, Duration keepAlive) {
        this.pool = pool;
        this.size = size;
        ForkJoinPool.ForkJoinWorkerThreadFactory factory =
                fj -> threads.add(new Carrier(fj, "gar-carrier-" + names.getAndIncrement(), takeTally(), spareTallies, live, this));
        // As VirtualThread.createDefaultScheduler: async mode, corePoolSize 0, minimumRunnable
        // max(size / 2, 1) (a compensated block may leave that many running before a spare starts),
        // saturate rather than throw, idle carriers leave after the keep-alive.
        this.forkJoin = new CarrierForkJoinPool(pool, size, factory, Math.max(size, maxSize), keepAlive);
    }

    /**
     * The carriers' {@code ForkJoinPool}: async mode, corePoolSize 0, minimumRunnable
     * {@code max(size / 2, 1)} (a compensated block may leave that many running before a spare
     * starts), saturating rather than throwing, idle carriers leaving after the keep-alive, as
     * {@code VirtualThread.createDefaultScheduler}; and a continuation the JDK submits to it directly
     * is admitted and wrapped as every other task (the class comment says when).
     */
    private static final class CarrierForkJoinPool extends ForkJoinPool {
        private final CarrierPool pool;

        CarrierForkJoinPool(CarrierPool pool, int size, ForkJoinWorkerThreadFactory factory, int maxSize, Duration keepAlive) {
            super(size, factory, (t, e) -> { }, true, 0, maxSize, Math.max(size / 2, 1), fj -> true,
                    keepAlive.toMillis(), TimeUnit.MILLISECONDS);
            this.pool = pool;
        }

        @Override
        public <T> ForkJoinTask<T> lazySubmit(ForkJoinTask<T> task) {
            if (task instanceof CarrierTask) return super.lazySubmit(task);
            super.lazySubmit(handedOver(task));
            return task;
        }

        @Override
        public <T> ForkJoinTask<T> externalSubmit(ForkJoinTask<T> task) {
            if (task instanceof CarrierTask) return super.externalSubmit(task);
            super.externalSubmit(handedOver(task));
            return task;
        }

        /** The next task of the submission queues (never a carrier's own queue), claimed as a carrier's scan claims it; or null. */
        ForkJoinTask<?> takeSubmission() { return pollSubmission(); }

        /** A continuation the JDK handed straight to the pool, admitted and wrapped as an admitted task. */
        private Run handedOver(ForkJoinTask<?> continuation) {
            pool.admitHandedOver();
            return new Run(pool, continuation::quietlyInvoke);
        }
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

    /**
     * A carrier: the JDK's carrier class, so the JDK's blocking calls compensate it; daemon, the
     * system class loader, no inherited thread locals, in the JDK's carrier thread group (all set by
     * {@code CarrierThread}).
     */
    private static final class Carrier extends CarrierThread implements WakeCapture {
        /** Written by this carrier only, from its start (Thread.start orders the handing over) to its end. */
        final CarrierTally tally;
        /** The carriers this one is of: what it runs between tasks. */
        final ForkJoinCarriers carriers;
        /** The virtual thread its between-tasks work woke first (this carrier only). */
        final CarrierCapture between = new CarrierCapture();
        private final Queue<CarrierTally> spares;
        private final List<Carrier> live;

        Carrier(ForkJoinPool fj, String name, CarrierTally tally, Queue<CarrierTally> spares, List<Carrier> live,
                ForkJoinCarriers carriers) {
            super(fj);
            this.carriers = carriers;
            this.tally = tally;
            this.spares = spares;
            this.live = live;
            setName(name);
        }

        @Override
        public boolean capture(CarrierPool pool, Runnable task) { return between.capture(pool, task); }

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

        /**
         * Whether the JDK's block under way here holds a spare and is counted in {@link #compensated}.
         * Written and read only by the virtual thread mounted here, between its Blocker.begin and
         * Blocker.end (one thread, the JDK calls both on this carrier): plain.
         */
        private boolean jdkBlockCounted;

        /**
         * The JDK's compensated block (Blocker.begin, on the virtual thread mounted here), counted while it
         * holds a spare: a task running on that spare is not waiting ({@link CarrierPool#queueDepth}). Not
         * counted when the pool was saturated (nothing compensated), or when a block was already under way
         * ({@code false}: the JDK then calls no {@code endBlocking} for this one).
         */
        @Override
        public boolean beginBlocking() {
            boolean began = super.beginBlocking();
            if (began && CarrierThreads.compensateValue(this) != 0) { // written by super just now, on this thread
                jdkBlockCounted = true;
                carriers.compensated.getAndIncrement();
            }
            return began;
        }

        /** The JDK's block ends (Blocker.end, the same virtual thread, on this carrier): its count goes. */
        @Override
        public void endBlocking() {
            super.endBlocking();
            if (jdkBlockCounted) {
                jdkBlockCounted = false;
                carriers.compensated.getAndDecrement();
            }
        }
    }

    /**
     * A task of these carriers' pool: it returns nothing and nothing joins it; it runs admitted tasks
     * through {@link CarrierPool#runTask}, each counted done whatever it throws.
     */
    private abstract static sealed class CarrierTask extends ForkJoinTask<Void> permits Run, Spread {
        final CarrierPool pool;

        CarrierTask(CarrierPool pool) { this.pool = pool; }

        @Override
        public final Void getRawResult() { return null; }

        @Override
        protected final void setRawResult(Void v) { }

        /** Runs one admitted task here, counted in this carrier's tally (only the pool's workers run its tasks; null would count it under a lock). */
        final void runOne(Runnable task) {
            if (!(Thread.currentThread() instanceof Carrier c)) {
                pool.runTask(task, null);
                return;
            }
            pool.runTask(task, c.tally);
            // Between tasks: a parker's turn lent here may wake a virtual thread; it runs next, here. At most
            // one look begins per gap: a burst of short tasks would otherwise read every armed word after each.
            Runnable look = c.carriers.look, next;
            if (look == null || !c.between.lookDue()) return;
            for (int i = 0; i < BETWEEN_MAX && (next = c.between.look(pool, look)) != null; i++) {
                CarrierCapture.runCaptured(pool, next, c.tally);
            }
        }
    }

    /** Virtual threads a carrier runs in a row from turns lent to it between tasks, before it returns to its queue. */
    static final int BETWEEN_MAX = 16;

    /** One admitted task. */
    private static final class Run extends CarrierTask {
        private final Runnable task;

        Run(CarrierPool pool, Runnable task) {
            super(pool);
            this.task = task;
        }

        @Override
        protected boolean exec() {
            runOne(task);
            return true;
        }
    }

    @Override
    public void push(Runnable task) {
        Run run = new Run(pool, task);
        // Called on one of our carriers itself (no virtual thread mounted), the task is the thread that
        // just left it: a yield, or a park that found its permit. Pushed to this carrier's own queue it
        // would run again at once, ahead of every thread woken from outside (the parkers' wakes, the
        // JDK's unparker). As the JDK's own scheduler does (VirtualThread.afterYield), it goes behind
        // the submissions when this carrier has nothing else queued.
        try {
            if (Thread.currentThread() instanceof Carrier c && c.getPool() == forkJoin && c.getQueuedTaskCount() == 0) {
                forkJoin.externalSubmit(run);
            } else {
                forkJoin.execute(run); // from a virtual thread on a carrier: its own queue; from elsewhere: a submission queue
            }
        } catch (RejectedExecutionException full) {
            // Refused while running: a queue the full heap could not grow ("Queue capacity exceeded"). As an
            // OutOfMemoryError the JDK submits the thread again after its pause; as a refusal it stays unparked.
            if (forkJoin.isShutdown()) throw full;
            throw new OutOfMemoryError("carrier queue full: " + full.getMessage());
        }
    }

    /**
     * Many tasks at once (a parker's scan woke them together): one {@link Spread} submitted for
     * the lot. The carrier that takes it forks the tasks, in their order, into its own queue, where an
     * idle carrier steals them, and runs the first task itself. Submitted one by one from a thread that is
     * no carrier, each would take the submission queue's lock and, with the carriers draining it as
     * fast as it fills, wake one of them again (docs/SCALE.md, "The hand-off in batches"). A few
     * tasks go one by one still: each may wake an idle carrier at once, where a spread wakes the
     * second only once the first runs.
     */
    @Override
    public int pushAll(Runnable[] tasks) {
        if (tasks.length < SPREAD_FROM) return pushEach(tasks);
        try {
            forkJoin.execute(new Spread(pool, tasks, 0, tasks.length));
            return tasks.length;
        } catch (OutOfMemoryError | RejectedExecutionException e) {
            if (e instanceof RejectedExecutionException r && forkJoin.isShutdown()) throw r;
            return 0; // none pushed (no memory, or a queue that could not grow): the pool pushes them one by one
        }
    }

    @Override
    public void betweenTasks(Runnable look) { this.look = look; }

    /**
     * One task a thread that is no carrier pushed and no carrier took yet: {@code pollSubmission}
     * claims it from a submission queue as a carrier's scan would, so it runs once. Only a
     * {@link Run} is taken; a {@link Spread} forks its tasks into its runner's own queue, so it goes
     * back to the carriers (behind the others) and nothing is taken.
     */
    @Override
    public Runnable takeWaiting() {
        ForkJoinTask<?> t = forkJoin.takeSubmission();
        if (t instanceof Run r) return r.task; // nothing joins a Run: it is dropped unfinished, its task run by the caller
        if (t != null) forkJoin.execute(t);
        return null;
    }

    /** From this many tasks {@link #pushAll} submits one {@link Spread}. */
    static final int SPREAD_FROM = 8;

    /** Tasks a {@link Spread} forks ahead of the rest: the queue holds this many of a batch at most, plus the rest. */
    static final int SPREAD_STEP = 32;

    /**
     * Admitted tasks {@code [lo, hi)} of one array, run in the array's order: the carrier that takes a spread
     * forks the next {@link #SPREAD_STEP} tasks into its own queue, then the rest as one spread behind them,
     * and runs the first itself through {@link CarrierPool#runTask}. The carriers' queues are FIFO (async
     * mode), so their owner and a thief alike take the oldest first: the tasks run in the order the parker's
     * scan woke them. Forking halves, as this did until 2026-12-07, made that order breadth-first (tasks 0,
     * 500, 250, 125, ... of 1,000), and each resume touched memory far from the last one's (docs/SCALE.md,
     * "The order of a batch's resumes"). Each task still runs once and is counted done once, whatever it
     * throws; one blocked (a pinned thread) leaves the forked tasks in its carrier's queue, where the others
     * and a compensating carrier steal them.
     */
    private static final class Spread extends CarrierTask {
        private final Runnable[] tasks;
        private final int lo, hi;

        Spread(CarrierPool pool, Runnable[] tasks, int lo, int hi) {
            super(pool);
            this.tasks = tasks;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected boolean exec() {
            int end = Math.min(hi, lo + SPREAD_STEP);
            int forked = lo + 1; // tasks [lo + 1, forked) are queued
            try {
                for (; forked < end; forked++) new Run(pool, tasks[forked]).fork(); // this carrier's own queue: no lock, stealable
                if (end < hi) new Spread(pool, tasks, end, hi).fork(); // behind them: taken once they are
                forked = hi;
            } catch (OutOfMemoryError | RejectedExecutionException e) {
                // No memory to fork the rest (or a queue that could not grow refused): this carrier runs them, one
                // after another, below. Each was admitted and its unpark returned: dropped here, it would never run.
            }
            runOne(tasks[lo]);
            for (int i = forked; i < hi; i++) runOne(tasks[i]); // none unless a fork failed: the tasks it could not queue
            return true;
        }
    }

    @Override
    public void retire() {
        forkJoin.shutdown(); // nothing is queued (the pool's ctl says so); idle workers leave
    }

    @Override
    public boolean awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        return forkJoin.awaitTermination(timeout, unit) && threads.awaitEnded(deadline);
    }

    @Override
    public int size() { return size; }

    @Override
    public int threads() { return forkJoin.getPoolSize(); }

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

    @Override
    public boolean jdkCompensating(Thread carrier) { return CarrierThreads.jdkCompensating(carrier); }

    @Override
    public long beginBlock() {
        long post = CarrierThreads.beginBlock(forkJoin);
        if (post != 0) compensated.getAndIncrement(); // 0: saturated, no spare runs in for it
        return post;
    }

    /** Gives a watch's compensation back; the pool's termination is looked at again ({@link CarrierThreads#giveBack} says why). */
    @Override
    public void endBlock(long post) {
        if (post == 0) return; // saturated at its begin: nothing was taken, nothing counted
        compensated.getAndDecrement();
        CarrierThreads.giveBack(forkJoin, post, true);
    }

    /** The parallelism plus the blocks compensated now (an opaque read: see {@link #compensated}). */
    @Override
    public int running() { return size + compensated.getOpaque(); }

    @Override
    public String toString() { return forkJoin.toString(); }

    @Override
    public int queued() {
        return (int) Math.min(Integer.MAX_VALUE, forkJoin.getQueuedSubmissionCount() + forkJoin.getQueuedTaskCount());
    }
}
