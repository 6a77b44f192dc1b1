package dev.gpureactor.carrier;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The platform carrier threads that run this library's virtual threads, and their lifecycle.
 *
 * <p><b>Shape.</b> The pool is told what the Loom early-access scheduler API tells a scheduler: {@link #onStart}
 * for a new virtual thread's first run, {@link #onContinue} for a parked one's. JDK 25's only hook is the
 * package-private {@code VirtualThreadBuilder(Executor)}, and {@link #execute} is the thin adapter from it
 * ({@link VirtualThreads}). The carriers are a {@code ForkJoinPool} in async mode of the JDK's own carrier
 * threads, as the JDK's scheduler ({@link ForkJoinCarriers}), compensated where they block ({@link CarrierWatch}).
 *
 * <p><b>Hosting.</b> When a parker's turn unparks a virtual thread, {@link #onContinue} runs on that
 * parker thread and hands the task to {@link WakeCapture#capture}: the parker keeps the first to
 * run there and hands the others over together once its scan is over ({@link #resumeAll}).
 *
 * <p><b>Lifecycle.</b> {@link #close()} closes admission of new threads, never of resumes: a live
 * virtual thread of this pool is resumed by whoever unparks it (another virtual thread, a parker,
 * the JDK's {@code VirtualThread-unparker}, {@code -unblocker} and {@code Read-Poller} threads), and
 * none of them may ever see an exception from us. The carriers leave after the last live thread and the last
 * admitted task; {@code close} waits a bounded grace for that, else warns {@link ErrorCode#LiveAtClose}.
 *
 * <p><b>The ctl word.</b> One {@link AtomicLong} holds the retired bit, the closed bit, the live
 * virtual threads and the admitted tasks not yet run, so that admission and termination are decided
 * on one word:
 * <ul>
 * <li>a start is admitted (tasks + 1 by CAS) only while the closed bit is clear;</li>
 * <li>a resume (and a callback) is one fetch-and-add of tasks + 1, never retried (a CAS loop there
 *     lost to the carriers' decrements under a fan-out), refused only when the word it added to
 *     had the retired bit; a true resume can never see that, since its own thread counts as live
 *     until it ends, and the bit is set only on a word with no live thread;</li>
 * <li>a thread counts itself live as the first thing it runs (tasks ≥ 1 then: its start task is
 *     running) and not live as the last;</li>
 * <li>an update that leaves the word exactly {@code CLOSED} (closed, no live thread, no task) tries
 *     one CAS from {@code CLOSED} to {@code CLOSED | RETIRED}, and the carriers are retired by the
 *     CAS that wins. A resume's add that lands on {@code CLOSED} first is admitted and makes the CAS
 *     fail; its task still has the carriers, and its own decrement tries again. The retired bit is
 *     never cleared, and a refused add sees it, so no task lands after the carriers left, and the
 *     retirement happens once.</li>
 * </ul>
 * {@link #execute} tells a start from a resume by the thread's state ({@link VirtualThreads#isStarting}).
 * Both are admitted until the carriers retire (closed, nothing live or queued): a thread made before
 * the close and started after it while the pool still runs anything, or a pool thread's own child,
 * runs; {@link #threadFactory} refuses new threads once closed. A start whose thread the factory did
 * not make is adopted ({@link AdoptedThreads}).
 */
public final class CarrierPool implements Executor, AutoCloseable {
    /** How long {@link #close()} waits for the live threads to end before it warns and returns. */
    public static final Duration CLOSE_GRACE = Duration.ofSeconds(1);

    private static final long CLOSED = 1L << 62;
    /** The JDK's pause before it submits a resume again after an OutOfMemoryError (VirtualThread.submitRunContinuation). */
    static final long OOM_RETRY_NANOS = 100_000_000L;
    /** Set once, by the CAS that retires the carriers, on a word that was exactly CLOSED; never cleared. */
    private static final long RETIRED = Long.MIN_VALUE;
    private static final int LIVE_SHIFT = 31;
    private static final long ONE_LIVE = 1L << LIVE_SHIFT;
    private static final long TASK_MASK = ONE_LIVE - 1;

    /**
     * retired bit | closed bit | live threads << 31 | admitted tasks not yet run. Every access is a
     * volatile read or a CAS / atomic add: admission, the live count and retirement are one total order.
     */
    private final AtomicLong ctl = new AtomicLong();
    private final Carriers carriers;
    /** The live threads themselves, to name them at close and tell a close from inside (striped: {@link LiveThreads}); ctl's count decides. */
    private final LiveThreads live;
    private final Consumer<Warning> warnings;
    /**
     * The tally of tasks run by a thread that is no carrier (jcstress's stand-in carrier): several
     * threads may share it, so it is updated under its own lock, off the carriers' path.
     */
    private final CarrierTally strayTally = new CarrierTally();
    /** Virtual threads here that the factory did not make (a pool thread's plain {@code Thread.ofVirtual()}); null without carriers. */
    private final AdoptedThreads adopted;
    /** Compensates carriers blocked by pinned virtual threads or in the OS, and sweeps the adopted threads; null without carriers. */
    private final CarrierWatch watch;
    /** The carriers' retirement and the close's wait for it. */
    private final PoolExit exit;
    /** The lines a jcstress negative control removes; {@link PoolControls#NONE} in every pool the library makes. */
    private final PoolControls controls;
    /** The watch's rest: an admission that finds no task admitted wakes a resting watch (the Dekker pair is WatchRest's). */
    private final WatchRest rest;

    /**
     * @param size      carrier threads running at once when none blocks (the parkers are platform
     *                  threads too: count them against the cores)
     * @param warnings  where {@link ErrorCode#LiveAtClose} goes
     */
    public CarrierPool(int size, Consumer<Warning> warnings) {
        VirtualThreads.requireCarrierPool(); // before ForkJoinCarriers loads, as in the constructor below
        this(SchedulerProperties.checkedParallelism(size), SchedulerProperties.maxPoolSize(size), ForkJoinCarriers.KEEP_ALIVE, warnings); // checked first: maxPoolSize throws past 32767
    }

    /**
     * As {@link #CarrierPool(int, Consumer)}, with the pool's maximum size (compensating carriers
     * included) and the keep-alive of an idle carrier given.
     */
    public CarrierPool(int size, int maxSize, Duration keepAlive, Consumer<Warning> warnings) {
        SchedulerProperties.checkedParallelism(size);
        VirtualThreads.requireCarrierPool(); // before ForkJoinCarriers loads: its carrier class extends the JDK's
        this(size, warnings, PoolControls.NONE, pool -> new ForkJoinCarriers(pool, size, maxSize, keepAlive));
    }

    private CarrierPool(int size, Consumer<Warning> warnings, PoolControls controls, Function<CarrierPool, Carriers> carriers) {
        this.controls = controls;
        this.rest = new WatchRest(controls.rereadsAtRest());
        this.live = new LiveThreads(Math.max(1, size));
        this.warnings = Objects.requireNonNull(warnings, "warnings");
        this.carriers = carriers.apply(this);
        this.adopted = this.carriers instanceof QueuedCarriers ? null : new AdoptedThreads(this); // jcstress plays no JDK carriers
        this.watch = adopted == null ? null : new CarrierWatch(this, this.carriers, adopted, rest, "gar-carrier-watch");
        this.exit = new PoolExit(this, this.carriers, watch, live, this.warnings);
        if (watch != null) watch.start();
    }

    /** A pool with no carrier threads: jcstress plays the carriers with {@link #runWaiting}. */
    public static CarrierPool withoutCarriers() { return withoutCarriers(PoolControls.NONE); }

    /** As {@link #withoutCarriers()}, with the lines {@code controls} removes (a jcstress negative control). */
    public static CarrierPool withoutCarriers(PoolControls controls) {
        return new CarrierPool(0, w -> { }, controls, pool -> new QueuedCarriers());
    }

    /** As {@link #withoutCarriers()}, running {@code beforePush} before each push (tests: a fault there). */
    static CarrierPool withoutCarriers(Runnable beforePush) {
        return new CarrierPool(0, w -> { }, PoolControls.NONE, pool -> new QueuedCarriers(beforePush));
    }

    /**
     * Runs, on the calling thread, one task still waiting for a carrier (with no carriers, any queued task:
     * jcstress plays the carriers with it), taken once by this or a carrier; whether there was one. A relieved
     * parker thread calls it before it stands by (docs/SERVICE.md, "Where the tail at 512 comes from").
     */
    public boolean runWaiting() {
        Runnable r = carriers.takeWaiting();
        if (r == null) return false;
        runTask(r, null);
        return true;
    }

    // ---- the scheduler's entries -------------------------------------------------------------

    /**
     * The Executor route's adapter: the JDK calls this with a virtual thread's continuation, to start or to
     * continue it. The thread's state tells which ({@link VirtualThreads#isStarting}); for a task whose thread
     * cannot be read, a call while a thread of the pool lives is taken as a resume, otherwise as a start.
     */
    @Override
    public void execute(Runnable task) {
        Thread t = controls.tellsResumes() ? VirtualThreads.threadOf(task) : null;
        if (t == null) {
            if (controls.tellsResumes() && liveThreads() > 0) onContinue(task); else onStart(task); // a thread we cannot read
        } else if (!VirtualThreads.isStarting(t)) {
            onContinue(task);
        } else {
            admitStart(task, t);
        }
    }

    /** A start, admitted as a resume until retirement; its thread is adopted unless its factory claims it. */
    void admitStart(Runnable task, Thread t) {
        admitResume(adopted == null ? task : adopted.start(task, t));
    }

    /** A new virtual thread's first run ({@code task}): admitted unless the pool is closed (a coded {@link RejectedExecutionException}). */
    public void onStart(Runnable task) {
        Objects.requireNonNull(task, "task");
        long c;
        do {
            c = ctl.get(); // acquire: a close ordered before this read is seen
            if ((c & CLOSED) != 0) throw rejected();
        } while (!ctl.compareAndSet(c, c + 1)); // release: the task count is published before the push
        if ((c & TASK_MASK) == 0) rest.wake();
        push(task);
    }

    /**
     * A parked virtual thread continues ({@code task}): on a carrier, or, when a parker's turn unparked it, on
     * that parker ({@link WakeCapture#capture}). Never rejected while its thread lives.
     */
    public void onContinue(Runnable task) {
        Objects.requireNonNull(task, "task");
        // Plain read of the closed bit is enough here: capture after close only means the parker runs
        // it, or hands it over a little later through resumeAll, instead of this call pushing it.
        if (Thread.currentThread() instanceof WakeCapture p && (ctl.get() & CLOSED) == 0 && p.capture(this, task)) return;
        admitResume(task);
    }

    /** Admits a task unless retired (only an unreadable start or a late callback meets that): one fetch-and-add, no CAS loop. */
    void admitResume(Runnable task) {
        admitHandedOver();
        push(task);
    }

    /** Pushes one admitted task; a push that throws (out of memory: the JDK submits again) takes its admission back. */
    private void push(Runnable task) {
        try {
            carriers.push(task);
        } catch (Throwable t) {
            taskDone(); // as if it ran: the JDK's retry is admitted afresh
            throw t;
        }
    }

    /**
     * Resumes many parked virtual threads at once (a parker's scan woke them together): one admission and one push
     * ({@link Carriers#pushAll}) of {@code tasks}, the pool's array from now on. Refused only once retired.
     */
    public void resumeAll(Runnable[] tasks) {
        if (tasks.length == 0) return;
        admit(tasks.length);
        for (int i = carriers.pushAll(tasks); i < tasks.length; i++) pushAdmitted(tasks[i]);
    }

    /**
     * Resumes {@code task}, trying again after each {@code OutOfMemoryError} as the JDK does (every 100 ms, for as
     * long as it takes): for a wake a parker captured, whose unpark returned, so nobody else would resume it.
     */
    public void resumeSurely(Runnable task) {
        admitHandedOver();
        pushAdmitted(task);
    }

    /** Pushes an admitted task, again after each {@code OutOfMemoryError}: a push that failed left nothing queued. */
    private void pushAdmitted(Runnable task) {
        while (true) {
            try {
                carriers.push(task);
                return;
            } catch (OutOfMemoryError e) {
                LockSupport.parkNanos(OOM_RETRY_NANOS);
            }
        }
    }

    /**
     * The admission of a resume without its push: for a continuation the JDK hands straight to the carriers'
     * own pool ({@link ForkJoinCarriers}), which queues it itself once admitted here. Refused only once retired.
     */
    void admitHandedOver() { admit(1); }

    /** Admits {@code n} tasks with one fetch-and-add, refused only once retired (every resume's admission). */
    private void admit(int n) {
        long c = ctl.getAndAdd(n); // full fence: ordered with the retiring CAS and with a resting watch's read
        if ((c & RETIRED) != 0) {
            ctl.getAndAdd(-n); // keeps the task count true; the retired bit stays, so nothing is admitted meanwhile
            throw rejected(); // retired: no carrier would ever run them
        }
        if ((c & TASK_MASK) == 0) rest.wake();
    }

    /** Whether no carrier can be blocked in a task of ours: nothing admitted and no adopted thread (volatile reads; the watch rests on it). */
    boolean quiet() { return admitted() == 0 && (adopted == null || !adopted.any()); }

    /** The watch's rest (jcstress). */
    WatchRest rest() { return rest; }

    /**
     * {@return the callbacks' executor} Never a parker's (stages, {@code onComplete} must not run there); after close it
     * runs what it is given while the carriers stay. Each callback on a virtual thread of its own ({@link PoolCallbacks}).
     */
    public Executor callbacks() { return callbacks; }

    private final PoolCallbacks callbacks = new PoolCallbacks(this);

    /** The admission every resume takes (one fetch-and-add), as an executor: jcstress's PoolAdmitRetireStress. */
    public Executor resumes() { return callbacks.scheduler; }

    /**
     * Runs one admitted task on the calling carrier, counted run whatever it throws (the last after close retires
     * the carriers); {@code tally} is the carrier's own ({@link CarrierTally}: one task in {@link CarrierTally#SAMPLE}
     * timed), or null on a thread that is no carrier (every task timed, under the stray tally's lock).
     */
    void runTask(Runnable task, CarrierTally tally) {
        long weight = tally == null ? 1 : tally.timedWeight();
        long t0 = weight == 0 ? 0 : System.nanoTime();
        if (tally != null) tally.starting(); // the watch tells a carrier blocked inside one task by it
        try {
            task.run();
        } catch (Throwable t) {
            Uncaught.report(Thread.currentThread(), t);
        } finally {
            long busy = weight == 0 ? 0 : (System.nanoTime() - t0) * weight;
            if (tally != null) {
                tally.ran(busy);
            } else {
                synchronized (strayTally) { strayTally.ran(busy); } // the lock makes its writers one owner at a time
            }
            taskDone();
        }
    }

    /** One admitted task fewer (it ran, or its push failed): the last one after close retires the carriers. */
    private void taskDone() {
        if (ctl.decrementAndGet() == CLOSED) tryRetire();
    }

    /** What each carrier runs between two tasks (a parker's lent turn, {@code LineParker#lendTurn}); set before the first wait. */
    public void betweenTasks(Runnable look) { carriers.betweenTasks(look); }

    // ---- threads -------------------------------------------------------------------------------

    /** Virtual threads on this pool from {@code builder} (its scheduler this pool), each live while its task runs; refused once closed (coded). */
    public ThreadFactory threadFactory(Thread.Builder.OfVirtual builder) {
        ThreadFactory inner = builder.factory();
        return task -> {
            Objects.requireNonNull(task, "task");
            if (isClosed()) throw rejected();
            return inner.newThread(liveBody(task));
        };
    }

    /**
     * {@code task} as a pool thread's whole body, live from its first act to its last. The live entry is made here, by
     * whoever makes the thread, so nothing before {@code task} allocates: an OutOfMemoryError there ended the thread
     * unrun (a submitted future never done) with its live count taken (the carriers never retired).
     */
    Runnable liveBody(Runnable task) {
        LiveThreads.Entry me = new LiveThreads.Entry();
        return () -> {
            began(me);
            try {
                task.run();
            } finally {
                ended(me);
            }
        };
    }

    /** The calling virtual thread's first act, under the entry made before it began: it is live (its start task runs, so the pool is not retired). */
    public void began(LiveThreads.Entry me) {
        if (adopted != null) AdoptedThreads.claim(); // the factory's thread: not adopted
        counted(Thread.currentThread(), me);
    }

    /** {@code t} is live under {@code me}: its own first act, or its adoption inside its start's admitted task (never on a retired word). */
    void counted(Thread t, LiveThreads.Entry me) {
        ctl.addAndGet(ONE_LIVE); // counted before it can be found in the live set
        live.link(me, t); // allocates nothing: the count cannot be left up by a failed entry
    }

    /** The calling virtual thread's last act, with its entry ({@link #liveBody}'s, or the watch's for an adopted one). */
    public void ended(LiveThreads.Entry me) {
        live.leave(me); // gone from the live set (a volatile store) before the count drops
        if (ctl.addAndGet(-ONE_LIVE) == CLOSED) tryRetire(); // a hosted thread ends on its parker, outside any task
    }

    /**
     * Called by an update that left the word exactly {@code CLOSED}: retires the carriers unless a
     * resume's add got in first (then its task runs, and its decrement calls this again).
     */
    private void tryRetire() {
        if (!controls.retiresByCas() || ctl.compareAndSet(CLOSED, CLOSED | RETIRED)) exit.retire(); // the CAS: one retirement, and sticky
    }

    private static RejectedExecutionException rejected() {
        return ReactorException.rejection("carrier pool", "virtual thread");
    }

    // ---- state and statistics ------------------------------------------------------------------

    /** {@return the virtual threads of this pool that began running and have not ended, parked and adopted ones included} */
    public int liveThreads() { return (int) (ctl.get() >>> LIVE_SHIFT & TASK_MASK); }
    /** Admitted tasks not yet run, the running ones included. */
    int admitted() { return (int) (ctl.get() & TASK_MASK); }

    /** {@return about how many tasks wait for a carrier: the admitted less one per carrier running now (a blocked one's spare included)} */
    public int queueDepth() { return Math.max(0, admitted() - carriers.running()); }

    /**
     * {@return whether woken threads wait for a carrier, none idle to take them: more admitted than running} A
     * volatile and an opaque read, no allocation (a stale count misjudges one turn); a parker asks it whether waking early pays.
     */
    public boolean backlogged() { return admitted() > carriers.running(); }

    /** {@return whether {@link #close} was called: new threads are refused, resumes still run} */
    public boolean isClosed() { return (ctl.get() & CLOSED) != 0; }
    /** {@return the parallelism: carriers that run at once when none is blocked} */
    public int size() { return carriers.size(); }

    /** {@return the carrier threads alive now: the parallelism, give or take idle ones that left and spares for blocked ones} */
    public int threads() { return carriers.threads(); }

    /** Tasks run, summed over the carriers' tallies (each a little behind, see {@link CarrierTally}). */
    public long tasksRun() { return CarrierTally.sum(strayTally, carriers.tallies(), CarrierTally::tasks); }
    /** Time the carriers spent idle, summed. */
    public long idleNanos() { return carriers.idleNanos(); }
    /** Time spent running tasks, summed over carriers: an estimate from sampled tasks ({@link CarrierTally}). */
    public long busyNanos() { return CarrierTally.sum(strayTally, carriers.tallies(), CarrierTally::busyNanos); }

    /** {@return the spare carriers the {@link CarrierWatch} let in for carriers blocked where the JDK does not compensate, over the pool's life} */
    public long compensations() { return watch == null ? 0 : watch.compensations(); }

    /** The carriers' own state, as the JDK's ForkJoinPool prints it (diagnostics). */
    public String carriersState() { return carriers.toString(); }
    /** Whether the carrier watch thread has left (tests). */
    public boolean watchHasLeft() { return watch == null || watch.hasLeft(); }
    /** The carrier watch, or null without carriers (tests). */
    CarrierWatch watch() { return watch; }
    /** Each carrier thread alive now with its tally, as the watch sees them (tests). */
    public void forEachCarrier(BiConsumer<Thread, CarrierTally> each) { carriers.forEachCarrier(each); }

    /** {@return whether {@code t} is one of this pool's carriers} @param t any thread */
    public boolean isCarrier(Thread t) { return carriers.isCarrier(t); }
    /** {@return whether {@code t} runs on this pool (a live virtual thread of it, or a carrier): a close there must not wait for it} @param t any thread */
    public boolean runsHere(Thread t) { return exit.runsHere(t); }

    /** {@return whether the carriers left (after close, once nothing lives) within {@code timeout}} @param timeout how long to wait @throws InterruptedException if interrupted while waiting */
    public boolean awaitExit(Duration timeout) throws InterruptedException { return exit.awaitExit(timeout); }

    /** Whether the carriers were retired: closed, nothing live, nothing left to run. */
    public boolean isRetired() { return exit.isRetired(); }

    // ---- close ---------------------------------------------------------------------------------

    /** {@link #close(Duration)} with {@link #CLOSE_GRACE}. */
    @Override
    public void close() { close(CLOSE_GRACE); }

    /**
     * Closes admission of new threads and waits up to {@code grace} for the live ones to end (not at
     * all when called from one of them or from a carrier, which would wait for itself). Returns
     * whether the carriers were retired; when not, warns {@link ErrorCode#LiveAtClose}.
     *
     * @param grace how long to wait for the live threads
     * @return whether the carriers were retired
     */
    public boolean close(Duration grace) {
        long c = ctl.getAndUpdate(x -> x | CLOSED);
        if ((c & CLOSED) == 0 && (c | CLOSED) == CLOSED) tryRetire(); // nothing lived or was queued
        return exit.awaitRetired(grace, (c & CLOSED) == 0);
    }
}
