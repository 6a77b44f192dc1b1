package dev.gpureactor.carrier;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/*
 * Implementation overview.
 *
 * The carriers are the JDK's own CarrierThread class (ForkJoinCarriers), so every blocking call the
 * JDK wraps in Blocker (file and pipe I/O, Process.waitFor, Object.wait, ...) is compensated by the
 * JDK itself, at once, as on its own scheduler. The watch is for what the JDK does not compensate:
 *
 * - a virtual thread blocked while pinned: waiting for a class initialiser another thread runs, for
 *   a call site another thread links, on a monitor while a native frame pins it, or parked below a
 *   native frame. The JVM cannot unmount it, so it holds its carrier. (A callback, a completion
 *   stage or onComplete, runs on a virtual thread of its own, CarrierPool.callbacks, so it holds its
 *   carrier only where any virtual thread would: pinned.)
 * - a virtual thread blocked in the OS by a call the JDK does not wrap: open(2) and read(2) of a FIFO
 *   through FileInputStream, a blocking native downcall. The JDK's own scheduler hangs on these at
 *   parallelism 1 (OsBlockedCarrierTest). Such a carrier's thread is RUNNABLE, as a computing one's
 *   is; what tells them apart is that it burns no CPU.
 *
 * A pool deadlocks as soon as every carrier is blocked and what they wait for is a virtual thread
 * queued behind them. Every TICK the watch reads each carrier's tally (every task a carrier runs is
 * counted there, those the JDK hands straight to the pool included: ForkJoinCarriers): a carrier that
 * began a task and has not finished it since the last look (the same task) is blocked
 *   - when its thread waits (WAITING, TIMED_WAITING or BLOCKED: a virtual thread that parks unmounted
 *     leaves its carrier, so a carrier waiting inside a task is one a pinned thread holds);
 *   - when it is RUNNABLE but its thread's CPU time grew by less than 1/QUIET_SHARE of the time since
 *     the last look and the kernel, where it says (OsThread, Linux), does not have it running or
 *     queued to run (blocked in the OS).
 * While tasks are queued, the watch compensates each blocked carrier the JDK is not already
 * compensating, once, through the pool's own compensated-block pair (Carriers.beginBlock, the JDK's
 * ForkJoinPool.beginCompensatedBlock: it activates an idle carrier or starts one at once, up to the
 * pool's maximum size), and gives it back (endBlock) at the first look that finds the carrier moving
 * again, gone, or compensated by the JDK. After a look that compensated, the next two come at an eighth
 * of the tick (FOLLOW_UP_NANOS): the spare takes the next queued task, which in a burst of blocks
 * blocks too, and is seen at the second look that finds it in the same task; so a burst ramps up at a
 * spare every few milliseconds, not every two ticks. The pool's parallelism never changes: once the blocks end,
 * the spare carriers run out of work and leave after the keep-alive, as the JDK's do. A task that
 * computes is RUNNABLE and burns its tick's CPU, and is left alone, as the JDK leaves it.
 *
 * The CPU share. A carrier blocked in the OS uses microseconds a tick (none while it sleeps in the
 * kernel); a computing one uses the whole tick on a core of its own. The threshold 1/8 sits far
 * from both: a blocked carrier is missed only if it computes more than 2.5 ms of every 20, i.e. it
 * mostly computes; a computing carrier falls under it only when the OS gives it less than an eighth
 * of a core over the tick. That is the oversubscription risk (a GC safepoint, an overloaded machine:
 * measured here, 9 spinning threads on 2 cores put a quarter of a spinner's 20 ms ticks under the
 * share), and the kernel tells the two apart where the CPU share cannot: a starved carrier is R
 * (queued to run), a blocked one S or D. So a quiet RUNNABLE carrier counts only when the kernel does
 * not say R; where it says nothing (no /proc: not Linux) the CPU rule decides alone, with that risk,
 * bounded as every compensation is (only while tasks queue, one per misread carrier, given back at
 * the first look that sees it compute, within the pool's maximum size). Costs: the CPU clock is read
 * only for a RUNNABLE carrier, once a tick (a clock_gettime of the thread's CPU clock, about a
 * microsecond); the kernel's state only for a quiet one (one read of a /proc file).
 *
 * The reads are opaque and racy by design: a stale read only makes a compensation a tick late to
 * come or to go. They are no snapshot either, so a look reads what would excuse a carrier (the JDK
 * compensating it, its task over) on both sides of the evidence that it is blocked (look): a block
 * that ends during the look is not compensated as one that goes on. Nothing here decides admission
 * or retirement; those are the pool's ctl word.
 * The decisions are pure (blocked, decide) and tested on their own; the thread is the runner. It
 * leaves only when the pool retires (closed, no live thread, nothing admitted). A closed pool's live
 * threads run to their end (the README's promise), and one parked at the close may resume later and
 * block where only the watch compensates (AfterCloseCompensationTest), so the watch stays while any
 * of them lives: without it such a thread holds its carrier, and what it waits for queues behind it.
 * The cost: while a closed pool keeps live threads (a consumer nobody stopped), the watch keeps its
 * idle tick, ten wake-ups a second, as an idle open pool's, until it rests; the carriers still leave
 * after their keep-alive.
 *
 * The rest. With nothing admitted, no adopted thread and no compensation held, no carrier can be blocked
 * in a task of ours, so a look finds nothing to do. After QUIET_LOOKS_BEFORE_REST such looks in a row the
 * watch parks with no timeout, and the admission that ends the quiet unparks it (WatchRest, a Dekker pair
 * on the pool's ctl word): an idle reactor has no thread that wakes. The count keeps a watch of a pool that
 * empties between bursts from resting and being woken at every burst.
 */
public final class CarrierWatch implements Runnable {
    /** How often the watch looks while tasks are admitted: a blocked pool waits about two ticks for a spare carrier. */
    public static final long TICK_NANOS = 20_000_000;
    /** How often it looks while nothing is admitted, until it rests ({@link #QUIET_LOOKS_BEFORE_REST}): ten wake-ups a second. */
    static final long IDLE_TICK_NANOS = 100_000_000;
    /**
     * How soon it looks again after a look that compensated, for {@link #FOLLOW_UPS} looks: the spare it
     * started takes the next queued task, which may block as the last one did, and a block is seen at the
     * second look that finds the same task. At {@link #TICK_NANOS} every such wave would cost about two
     * ticks, a burst of blocks ramping up at about one carrier per 40 ms (64 FIFO opens on two carriers:
     * 2.7 s, docs/SCHEDULER.md). Only while it keeps compensating: one look that begins nothing ends it.
     */
    static final long FOLLOW_UP_NANOS = TICK_NANOS / 8;
    /** Looks at {@link #FOLLOW_UP_NANOS} after one that compensated: the two a new block needs to be seen. */
    static final int FOLLOW_UPS = 2;
    /** Quiet looks in a row (nothing admitted, adopted or held) after which the watch rests: a second of idle ticks. */
    static final int QUIET_LOOKS_BEFORE_REST = 10;
    /**
     * A RUNNABLE carrier that made no progress and whose CPU time grew by less than 1/QUIET_SHARE of
     * the time since the last look is blocked in the OS (the class comment says why an eighth).
     */
    static final int QUIET_SHARE = 8;
    /** No CPU time to go by: the carrier was not read at the last look, or the JVM cannot read it. */
    static final long CPU_UNKNOWN = -1;
    /** The JVM's per-thread CPU clock, probed once; null where it cannot read another thread's CPU time. */
    private static final ThreadMXBean CPU = probeCpu();

    /** What the watch does about one carrier at one look. */
    enum Action {
        /** Compensate it: one beginBlock, held until given back. */
        BEGIN,
        /** Give its compensation back: one endBlock. */
        END,
        /** Nothing changes. */
        KEEP
    }

    private final CarrierPool pool;
    private final Carriers carriers;
    /** The pool's adopted threads: nothing of ours runs at their end, so the watch sweeps them at each look. */
    private final AdoptedThreads adopted;
    /** The rest's handshake with the pool's admissions (the pool's own, which wakes this watch). */
    private final WatchRest rest;
    /** The pool's {@code quiet()}, made once: the rest allocates nothing (a full heap must not end the watch). */
    private final BooleanSupplier quiet;
    /** The look's reads of one carrier (watch thread only). */
    private final LiveSighting sighting;
    /** Compensations this watch holds now (begun, not given back). Watch thread only. */
    private int held;
    /** Looks taken; stamps the tallies a look visited. Watch thread only. */
    private long looks;
    /** When the last tick looked (nanoTime); watch thread only. */
    private long lookedAt = System.nanoTime();
    /** Compensations the watch began over the pool's life (statistics); written by the watch thread only. */
    private volatile long compensations;
    /** Set once, by stop(); the watch leaves at its next wake. */
    private volatile boolean stopped;
    private final Thread thread;
    /** A test's fault, run at each look before it (standing for an {@code OutOfMemoryError} there); null by default. */
    volatile Runnable fault;
    /** The watch thread, for the close to join. */
    private final OwnThreads threads = new OwnThreads();

    CarrierWatch(CarrierPool pool, Carriers carriers, AdoptedThreads adopted, WatchRest rest, String name) {
        this.pool = pool;
        this.carriers = carriers;
        this.adopted = adopted;
        this.rest = rest;
        this.quiet = pool::quiet;
        this.sighting = new LiveSighting(carriers);
        this.thread = threads.add(Thread.ofPlatform().name(name).daemon(true).inheritInheritableThreadLocals(false).unstarted(this));
        rest.watchedBy(thread);
    }

    void start() { thread.start(); }

    /** Ends the watch at its next wake (the pool retired its carriers). */
    void stop() {
        stopped = true; // volatile: read by the watch after its park
        LockSupport.unpark(thread);
    }

    /** Whether the watch thread has left (tests). */
    boolean hasLeft() { return !thread.isAlive(); }

    /** Whether the watch rests: parked with no timeout, or about to (tests). */
    boolean isResting() { return rest.isResting(); }

    /** The watch thread's state (tests: a resting watch is WAITING, a looking one TIMED_WAITING between looks). */
    Thread.State state() { return thread.getState(); }

    /** Waits until the watch thread has left (stopped first), until {@code deadlineNanos}. */
    boolean awaitLeft(long deadlineNanos) { return threads.awaitEnded(deadlineNanos); }

    /**
     * Looks every tick until stopped: the pool retired, so no thread of it lives any more (a closed pool's
     * parked threads may still resume and block: the class comment). Leaving, it gives back every
     * compensation it holds.
     */
    @Override
    public void run() {
        try {
            int followUps = 0, quietLooks = 0;
            while (!stopped) {
                // Nothing here allocates: the catch below covers the look only, as before the rest.
                boolean quietNow = quiet.getAsBoolean();
                quietLooks = quietNow && followUps == 0 && held == 0 ? quietLooks + 1 : 0;
                if (quietLooks > QUIET_LOOKS_BEFORE_REST) {
                    quietLooks = 0;
                    if (rest.announce(quiet) && !stopped) LockSupport.park(this); // an admission or stop() unparks
                    rest.over();
                } else {
                    LockSupport.parkNanos(this, nextLookNanos(followUps, !quietNow));
                }
                if (stopped) break;
                try {
                    Runnable f = fault;
                    if (f != null) f.run();
                    followUps = followUpsAfter(followUps, tick());
                    adopted.sweep(pool::ended); // each that ended is not live any more
                } catch (OutOfMemoryError e) {
                    // The heap is full for everyone a while: look again after the JDK's pause for a resume that met it.
                    // A watch that died of it left every later pinned block uncompensated (an outside probe).
                    LockSupport.parkNanos(this, CarrierPool.OOM_RETRY_NANOS);
                }
            }
        } finally {
            for (CarrierTally tally : carriers.tallies()) if (tally.watchHolds) act(tally, Action.END);
        }
    }

    /** How long until the next look: soon while following up a compensation, else by whether tasks are admitted. Pure. */
    static long nextLookNanos(int followUps, boolean admitted) {
        if (!admitted) return IDLE_TICK_NANOS;
        return followUps > 0 ? FOLLOW_UP_NANOS : TICK_NANOS;
    }

    /** The follow-up looks left after a look: all of them again when it compensated ({@code began}), else one fewer. Pure. */
    static int followUpsAfter(int followUps, boolean began) {
        return began ? FOLLOW_UPS : Math.max(0, followUps - 1);
    }

    /**
     * One look at the carriers: compensate the blocked ones, give back what the carriers do not need now.
     * Returns whether it began a compensation. Watch thread only.
     */
    boolean tick() {
        long now = System.nanoTime(), sinceLook = now - lookedAt, stamp = ++looks, before = compensations;
        lookedAt = now;
        boolean queued = carriers.queued() > 0;
        carriers.forEachCarrier((t, tally) -> {
            Action action = look(sighting.of(t, tally), tally, sinceLook, queued, true);
            tally.watchedLook = stamp;
            act(tally, action);
        });
        // A carrier that left while compensated (its tally back among the spares) gives its compensation back too.
        for (CarrierTally tally : carriers.tallies())
            if (tally.watchHolds && tally.watchedLook != stamp) act(tally, Action.END);
        return compensations != before;
    }

    /**
     * One carrier as a look reads it. Each call reads it anew, racily (the class comment): the reads are
     * no snapshot, so {@link #look} reads them in an order that makes a block or a task that ends during
     * the look read as ended.
     */
    interface Sighting {
        /** Whether the JDK compensates the carrier now ({@code CarrierThread.compensating} not 0). */
        boolean jdkCompensating();
        /** Tasks it began ({@link CarrierTally#started}). */
        long started();
        /** Tasks it finished ({@link CarrierTally#tasks}). */
        long finished();
        /** Its thread's state. */
        Thread.State state();
        /** Its thread's CPU time now, or {@link #CPU_UNKNOWN}. */
        long cpuNanos();
        /** What the kernel says its thread does now. */
        OsThread.Scheduling scheduling();
    }

    /**
     * What to do about one carrier at one look, from what {@code s} reads of it now and what the last
     * look noted in its {@code tally} (updated here). The excuses are read on both sides of the
     * evidence: the JDK's compensation before it and after it, the tasks after it again. Read only
     * after it, a pipe reader the JDK compensated, woken between the kernel's "asleep" and the read of
     * {@code compensating}, read as a block nobody compensates (a spare too many, seen under load);
     * read only before it, a carrier that finished its task and went to wait for the next one read as
     * waiting inside it. {@code bracketed} is false only in a jcstress negative control
     * ({@code CarrierLookNegativeControl}: the excuses read once, after the evidence).
     */
    static Action look(Sighting s, CarrierTally tally, long sinceLook, boolean queued, boolean bracketed) {
        boolean jdk = bracketed && s.jdkCompensating();
        long started = s.started(), finished = s.finished();
        Thread.State state = s.state();
        // The CPU clock only for a carrier inside a task and RUNNABLE: the one case it decides.
        long cpuNow = started != finished && state == Thread.State.RUNNABLE ? s.cpuNanos() : CPU_UNKNOWN;
        // Since the last look only if that look read this same carrier's clock (a tally changes owner only between tasks).
        long cpu = started == tally.watchedStarted && tally.watchedCpuNanos >= 0 && cpuNow >= 0
                ? cpuNow - tally.watchedCpuNanos : CPU_UNKNOWN;
        boolean b = blocked(tally.watchedStarted, started, finished, state, cpu, sinceLook, OsThread.Scheduling.UNKNOWN);
        // Quiet and RUNNABLE: asleep in the kernel, or starved of a core? Only the kernel knows.
        if (b && state == Thread.State.RUNNABLE)
            b = blocked(tally.watchedStarted, started, finished, state, cpu, sinceLook, s.scheduling());
        // Still in the same task after the evidence? The state and the kernel's word are read after the
        // tally, so they may be of the carrier's wait for its next task.
        if (b && bracketed) b = s.finished() == finished && s.started() == started;
        tally.watchedStarted = started;
        tally.watchedCpuNanos = cpuNow;
        return decide(b, jdk || s.jdkCompensating(), tally.watchHolds, queued);
    }

    /** The live carriers as the watch reads them: one, reused for each carrier (the look allocates nothing). */
    private static final class LiveSighting implements Sighting {
        private final Carriers carriers;
        private Thread thread;
        private CarrierTally tally;

        LiveSighting(Carriers carriers) { this.carriers = carriers; }

        LiveSighting of(Thread t, CarrierTally c) {
            thread = t;
            tally = c;
            return this;
        }

        @Override public boolean jdkCompensating() { return carriers.jdkCompensating(thread); }
        @Override public long started() { return tally.started(); } // opaque: see the class comment
        @Override public long finished() { return tally.tasks(); }
        @Override public Thread.State state() { return thread.getState(); }
        @Override public long cpuNanos() { return cpuTime(thread); }
        @Override public OsThread.Scheduling scheduling() { return OsThread.scheduling(tally.osThreadId()); }
    }

    private void act(CarrierTally tally, Action action) {
        switch (action) {
            case BEGIN -> {
                // Counted before the begin (volatile, single writer): whoever sees the spare's work sees the
                // compensation counted. Counted after it, a reader could see the queued thread run and 0.
                compensations++;
                long post = 0;
                try {
                    post = carriers.beginBlock();
                } finally {
                    if (post == 0) compensations--; // at the pool's maximum size (the next look tries again), or it threw
                }
                if (post != 0) {
                    tally.watchHolds = true;
                    tally.watchPost = post;
                    held++;
                }
            }
            case END -> {
                tally.watchHolds = false;
                held--;
                carriers.endBlock(tally.watchPost);
            }
            case KEEP -> { }
        }
    }

    /** Compensations the watch began over the pool's life (each started or activated a spare carrier). */
    long compensations() { return compensations; }

    /**
     * Whether a carrier is blocked inside one task: it began a task it has not finished
     * ({@code started != finished}), the same one as at the last look ({@code started ==
     * startedBefore}), and
     * <ul>
     * <li>its thread waits (WAITING, TIMED_WAITING or BLOCKED: a pinned virtual thread holds it), or</li>
     * <li>it is RUNNABLE but used less than 1/{@link #QUIET_SHARE} of
     *     {@code sinceLookNanos} of CPU since the last look ({@code cpuNanos}; {@link #CPU_UNKNOWN}
     *     where not known, when only a waiting carrier counts) and the kernel does not have it
     *     running or queued to run ({@code os}: RUNNING is a computing carrier starved on an
     *     overloaded machine): blocked in the OS.</li>
     * </ul>
     */
    static boolean blocked(long startedBefore, long started, long finished, Thread.State state,
                           long cpuNanos, long sinceLookNanos, OsThread.Scheduling os) {
        if (started == finished || started != startedBefore) return false;
        return switch (state) {
            case WAITING, TIMED_WAITING, BLOCKED -> true;
            case RUNNABLE -> os != OsThread.Scheduling.RUNNING
                    && cpuNanos >= 0 && sinceLookNanos > 0 && cpuNanos < sinceLookNanos / QUIET_SHARE;
            case NEW, TERMINATED -> false;
        };
    }

    /**
     * What to do about one carrier: compensate a blocked one the JDK does not compensate, once, while
     * tasks are queued ({@code queued}); give a held compensation back ({@code held}) once the carrier
     * moves again or the JDK compensates it (never two compensations for one block).
     */
    static Action decide(boolean blocked, boolean jdkCompensating, boolean held, boolean queued) {
        if (held) return !blocked || jdkCompensating ? Action.END : Action.KEEP;
        return blocked && !jdkCompensating && queued ? Action.BEGIN : Action.KEEP;
    }

    /** {@code t}'s CPU time in nanoseconds, or {@link #CPU_UNKNOWN} (no clock, disabled, or the thread is gone). */
    private static long cpuTime(Thread t) {
        if (CPU == null) return CPU_UNKNOWN;
        long ns = CPU.getThreadCpuTime(t.threadId()); // -1 when disabled or the thread died
        return ns >= 0 ? ns : CPU_UNKNOWN;
    }

    private static ThreadMXBean probeCpu() {
        try {
            ThreadMXBean b = ManagementFactory.getThreadMXBean();
            return b.isThreadCpuTimeSupported() ? b : null;
        } catch (RuntimeException | LinkageError e) { // no java.management, or a security manager said no
            return null;
        }
    }
}
