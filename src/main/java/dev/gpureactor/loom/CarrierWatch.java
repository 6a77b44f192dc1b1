package dev.gpureactor.loom;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;

/*
 * Implementation overview.
 *
 * A virtual thread that blocks while pinned blocks its carrier: the JVM cannot unmount a
 * continuation that waits for a class initialiser another thread runs, for a call site another
 * thread links, or for anything at all below a native frame. (A callback, a completion stage or
 * onComplete, runs on a virtual thread of its own, CarrierPool.callbacks, so it holds its carrier
 * only where any virtual thread would: pinned.) The JDK compensates its own scheduler's carriers
 * for a few of these and for none of the others. A pool then deadlocks as soon as every carrier is
 * blocked and what they wait for is a virtual thread queued behind them: with one carrier one block
 * is enough. PinnedCarrierTest builds it on purpose (a class initialiser pinned on a lock whose
 * holder has unmounted). The soak met it on a runtime without a CDS archive, where first uses are
 * slow and collide: a stage callback, then run on the only carrier itself, blocked on a resource
 * bundle's monitor while formatting an error message, and the monitor's holder, a virtual thread
 * that had unmounted inside it, was queued behind the callback (CallbackMonitorTest).
 *
 * A virtual thread can also block its carrier in the OS: a read(2) of a pipe or FIFO, an open(2)
 * of a FIFO, a blocking native downcall. JDK 25 compensates few of these for its own carriers
 * (Blocker.begin: direct or synchronous FileChannel I/O, force and sync, Process.waitFor, host name
 * lookups, System.in and System.out; not FileInputStream, whose open and read of a FIFO hang its
 * scheduler at parallelism 1 as they hung this pool, OsBlockedCarrierTest), and none for carriers
 * not its own. Such a carrier's thread is
 * RUNNABLE, as a computing one's is; what tells them apart is that it burns no CPU.
 *
 * The watch is the pool's compensation, in the manner of the JDK's ForkJoinPool managed blocking,
 * from outside since the block cannot be wrapped. Every TICK it reads each carrier's tally: a
 * carrier that began a task and has not finished it since the last tick (the same task) is blocked
 * when its thread waits (WAITING, TIMED_WAITING or BLOCKED: a virtual thread that parks unmounted
 * leaves its carrier, so a carrier waiting inside a task is one a pinned thread holds), or when it
 * is RUNNABLE but its thread's CPU time grew by less than 1/QUIET_SHARE of the time since the last
 * tick and the kernel, where it says (OsThread, Linux), does not have it running or queued to run
 * (blocked in the OS). While tasks wait for a carrier, the pool runs one extra carrier per
 * blocked one; once none is blocked the extras go. A task that computes is RUNNABLE and burns its
 * tick's CPU, and is left alone, as the JDK leaves it.
 *
 * The CPU share. A carrier blocked in the OS uses microseconds a tick (none while it sleeps in the
 * kernel); a computing one uses the whole tick on a core of its own. The threshold 1/8 sits far
 * from both: a blocked carrier is missed only if it computes more than 2.5 ms of every 20, i.e. it
 * mostly computes; a computing carrier falls under it only when the OS gives it less than an eighth
 * of a core over the tick. That is the oversubscription risk: on an overloaded machine (measured
 * here: 9 spinning threads on 2 cores put a quarter of a spinner's 20 ms ticks under the share, 17
 * nearly all) the CPU rule alone would add carriers the machine has no core for, each of them then
 * starved and misread in turn. The kernel tells the two apart where the CPU share cannot: a starved
 * carrier is R (queued to run), a blocked one S or D. So a quiet RUNNABLE carrier counts only when
 * the kernel does not say R; where it says nothing (no /proc: not Linux) the CPU rule decides alone,
 * with that risk, bounded as every compensation is (only while tasks queue, one per misread carrier,
 * gone at the first tick that sees it compute, at most MAX_EXTRA). Costs: the CPU clock is read only
 * for a carrier inside a task and RUNNABLE, once a tick (a clock_gettime of the thread's CPU clock,
 * about a microsecond); the kernel's state only for a quiet one (one read of a /proc file). Where
 * the JVM cannot read another thread's CPU time (unsupported, or disabled by
 * ThreadMXBean.setThreadCpuTimeEnabled) only waiting carriers count, as before.
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
    /**
     * A RUNNABLE carrier stuck in one task whose CPU time grew by less than 1/QUIET_SHARE of the
     * time since the last look is blocked in the OS (the class comment says why an eighth).
     */
    static final int QUIET_SHARE = 8;
    /** No CPU time to go by: the carrier was not read at the last look, or the JVM cannot read it. */
    static final long CPU_UNKNOWN = -1;
    /** The JVM's per-thread CPU clock, probed once; null where it cannot read another thread's CPU time. */
    private static final ThreadMXBean CPU = probeCpu();

    private final CarrierPool pool;
    private final Carriers carriers;
    /** The extra carriers asked for at the last tick; watch thread only. */
    private int extra;
    /** When the last tick looked (nanoTime); watch thread only. */
    private long lookedAt = System.nanoTime();
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
        long now = System.nanoTime(), sinceLook = now - lookedAt;
        lookedAt = now;
        carriers.forEachCarrier((t, tally) -> {
            long started = tally.started(), finished = tally.tasks(); // opaque: see the class comment
            Thread.State state = t.getState();
            // The CPU clock only for a carrier inside a task and RUNNABLE: the one case it decides.
            long cpuNow = started != finished && state == Thread.State.RUNNABLE ? cpuTime(t) : CPU_UNKNOWN;
            // Since the last look only if that look read this same task (a tally changes owner only between tasks).
            long cpu = started == tally.watchedStarted && tally.watchedCpuNanos >= 0 && cpuNow >= 0
                    ? cpuNow - tally.watchedCpuNanos : CPU_UNKNOWN;
            boolean b = blocked(tally.watchedStarted, started, finished, state, cpu, sinceLook, OsThread.Scheduling.UNKNOWN);
            // Quiet and RUNNABLE: asleep in the kernel, or starved of a core? Only the kernel knows.
            if (b && state == Thread.State.RUNNABLE)
                b = blocked(tally.watchedStarted, started, finished, state, cpu, sinceLook, OsThread.scheduling(tally.osThreadId()));
            if (b) blocked[0]++;
            tally.watchedStarted = started;
            tally.watchedCpuNanos = cpuNow;
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
     * startedBefore}), and its thread waits, or is RUNNABLE but used less than 1/{@link #QUIET_SHARE}
     * of {@code sinceLookNanos} of CPU since the last look ({@code cpuNanos}; {@link #CPU_UNKNOWN}
     * where not known, when only a waiting carrier counts) and the kernel does not have it running or
     * queued to run ({@code os}: RUNNING is a computing carrier starved on an overloaded machine):
     * blocked in the OS.
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
