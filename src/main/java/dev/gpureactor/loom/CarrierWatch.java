package dev.gpureactor.loom;

import java.util.concurrent.locks.LockSupport;

/*
 * Implementation overview.
 *
 * A virtual thread that blocks while pinned blocks its carrier: the JVM cannot unmount a
 * continuation that waits for a class initialiser another thread runs, for a call site another
 * thread links, or for anything at all below a native frame. (A callback, a completion stage or
 * onComplete, runs on a virtual thread of its own, CarrierPool.callbacks, so it holds its carrier
 * only where any virtual thread would: pinned.) The JDK compensates
 * its own scheduler's carriers for a few of these (Object.wait, file I/O) and for none of the
 * others. A pool then deadlocks as soon as every carrier is blocked and what they wait for is a
 * virtual thread queued behind them: with one carrier one block is enough. PinnedCarrierTest builds
 * it on purpose (a class initialiser pinned on a lock whose holder has unmounted). The soak met it
 * on a runtime without a CDS archive, where first uses are slow and collide: a stage callback, then
 * run on the only carrier itself, blocked on a resource bundle's monitor while formatting an error
 * message, and the monitor's holder, a virtual thread that had unmounted inside it, was queued
 * behind the callback (CallbackMonitorTest).
 *
 * The watch is the pool's compensation, in the manner of the JDK's ForkJoinPool managed blocking,
 * from outside since the block cannot be wrapped. Every TICK it reads each carrier's tally: a
 * carrier that began a task and has not finished it since the last tick (the same task), and whose
 * thread waits (WAITING, TIMED_WAITING or BLOCKED: a virtual thread that parks unmounted leaves its
 * carrier, so a carrier waiting inside a task is one a pinned thread holds), is blocked. While
 * tasks wait for a carrier, the pool runs one extra carrier per blocked one; once none is blocked
 * the extras go. A task that computes is RUNNABLE and is left alone, as the JDK leaves it.
 *
 * The reads are opaque and racy by design: a stale read only makes the compensation a tick late to
 * come or to go. Nothing here decides admission or retirement; those are the pool's ctl word.
 * The decision is pure (blocked, extraWanted) and tested on its own; the thread is the runner.
 */
final class CarrierWatch implements Runnable {
    /** How often the watch looks while tasks are admitted: a blocked pool waits about two ticks for its extra carrier. */
    static final long TICK_NANOS = 20_000_000;
    /** At most this many extra carriers at once, as the JDK caps its scheduler's compensation (maxPoolSize 256). */
    static final int MAX_EXTRA = 256;
    /** How often it looks while nothing is admitted (an idle reactor's cost: ten wake-ups a second). */
    static final long IDLE_TICK_NANOS = 100_000_000;

    private final CarrierPool pool;
    private final Carriers carriers;
    /** The extra carriers asked for at the last tick; watch thread only. */
    private int extra;
    /** Extra carriers started over the pool's life (statistics); written by the watch thread only. */
    private volatile long compensations;
    private final Thread thread;

    CarrierWatch(CarrierPool pool, Carriers carriers, String name) {
        this.pool = pool;
        this.carriers = carriers;
        this.thread = Thread.ofPlatform().name(name).daemon(true).inheritInheritableThreadLocals(false).unstarted(this);
    }

    void start() { thread.start(); }

    /** Ends the watch (the pool retired its carriers). */
    void stop() { LockSupport.unpark(thread); }

    @Override
    public void run() {
        while (!pool.isRetired()) {
            LockSupport.parkNanos(this, pool.admitted() > 0 ? TICK_NANOS : IDLE_TICK_NANOS);
            if (pool.isRetired()) return;
            tick();
        }
    }

    /** One look at the carriers: count the blocked ones, then compensate. Watch thread only. */
    void tick() {
        int[] blocked = {0};
        carriers.forEachCarrier((t, tally) -> {
            long started = tally.started(), finished = tally.tasks(); // opaque: see the class comment
            if (blocked(tally.watchedStarted, started, finished, t.getState())) blocked[0]++;
            tally.watchedStarted = started;
        });
        int want = extraWanted(blocked[0], pool.queueDepth(), extra);
        if (want > extra) compensations += want - extra; // volatile: the statistics' readers
        boolean changed = want != extra;
        extra = want;
        // Every tick while any is wanted: an extra carrier of the shared FIFO leaves once it drains the queue.
        if (changed || want > 0) carriers.compensate(want);
    }

    /** Extra carriers started over the pool's life. */
    long compensations() { return compensations; }

    /**
     * Whether a carrier is blocked inside one task: it began a task it has not finished
     * ({@code started != finished}), the same one as at the last look ({@code started ==
     * startedBefore}), and its thread waits.
     */
    static boolean blocked(long startedBefore, long started, long finished, Thread.State state) {
        return started != finished && started == startedBefore
                && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED);
    }

    /**
     * The extra carriers to run: none once no carrier is blocked; one per blocked carrier while
     * tasks wait for a carrier, up to {@link #MAX_EXTRA}; otherwise as many as now (no churn while
     * blocked threads come and go).
     */
    static int extraWanted(int blocked, int queued, int extraNow) {
        if (blocked == 0) return 0;
        return queued > 0 ? Math.min(MAX_EXTRA, Math.max(extraNow, blocked)) : extraNow;
    }
}
