package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * One wait on device work: a {@link MemoryDescriptor} (the word its stream stores behind the work),
 * the {@link CompletionPort} that is the error authority, and an optional readback that turns the
 * finished work into a value.
 *
 * <p><b>States.</b> {@code PENDING → READY → RESOLVING → COMPLETED | FAILED}, or from
 * {@code PENDING} through the transient {@code SETTLING} straight to one of {@code COMPLETED} (no
 * readback), {@code FAILED}, {@code CANCELLED}, {@code TIMED_OUT}, {@code INTERRUPTED}. Every move
 * out of {@code PENDING} is one CAS, so exactly one of device completion, a port failure, cancel,
 * timeout or interrupt wins, and every caller sees that one: a caller that loses to a
 * {@code SETTLING} winner waits out its few stores before it reports (jcstress TerminalStateStress
 * caught a losing {@code cancel} that read the transient state and answered {@code false} for a
 * future that ended cancelled).
 * {@code READY} means the device is done; the readback then runs once, on a joining thread (never
 * on the parker), or on the callback executor when nobody joins.
 *
 * <p><b>Memory ordering.</b> The outcome fields are written before the state is published with a
 * volatile store (or a volatile CAS), and read after an acquire load of the state that saw it, so a
 * joiner that sees {@code COMPLETED} sees the value. Together with the parker's acquire load of the
 * word, this carries the device's payload → word store → parker → joiner happens-before chain.
 *
 * <p><b>Waiting.</b> Joiners push themselves on a Treiber stack and park with
 * {@link LockSupport#park}; a virtual thread so parked unmounts and frees its carrier. Whoever
 * moves the state on pops the whole stack and unparks it; a joiner re-checks the state after its
 * push, so no wake is lost. An interrupted or timed-out {@link #join(Duration)} ends the wait for
 * everyone: a {@code GpuFuture} is one wait, not a shared promise.
 *
 * <p><b>One watcher at a time.</b> A wait ends with the first authority that speaks: a word seen
 * reached, or a query. Under gpu-reactor the wait is registered with its line's parker before
 * anyone joins; a platform thread that joins takes the plan over, and it first withdraws the
 * registration (an offer to the parker's removals) and only then queries. A parker turn snapshots
 * the line before it drains its removals, so a turn that saw a store made after the joiner's first
 * query (the store is ordered after the withdrawal) also sees the withdrawal, and no longer holds
 * the wait. The parker therefore settles a taken-over wait only from a word stored before the
 * joiner's query, or from its own query: never from a store that landed after the joiner's query
 * reported the stream's failure (jcstress {@code InlineTakeoverStress}; the soak found it).
 */
public final class GpuFuture<T> implements Future<T> {
    /** Ordered: below {@code COMPLETED} nothing is published; {@code SETTLING} is a PENDING-settle's owner-only state. */
    static final int PENDING = 0, READY = 1, RESOLVING = 2, SETTLING = 3, COMPLETED = 4, FAILED = 5, CANCELLED = 6,
            TIMED_OUT = 7, INTERRUPTED = 8;

    private static final VarHandle STATE, JOINERS, STAGE, INLINE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(GpuFuture.class, "state", int.class);
            JOINERS = l.findVarHandle(GpuFuture.class, "joiners", Joiner.class);
            STAGE = l.findVarHandle(GpuFuture.class, "stage", CompletableFuture.class);
            INLINE = l.findVarHandle(GpuFuture.class, "inline", NaiveWait.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MemoryDescriptor descriptor;
    private final CompletionPort port;
    private final Supplier<? extends T> readback;
    private final Executor callbacks;
    /** Parker bookkeeping: set once at registration, read by the parker thread only. */
    final long id;
    final long startNanos;
    /** When the parker should be awake for this wait: start + the estimate's sleep (= start when cold). */
    final long wakeAtNanos;
    /** How far past its wake the parker watches this wait at least: the point's recent spread (0 when cold). */
    final long spreadNanos;
    final Object pointKey;

    private volatile int state;
    private T value;
    private Throwable failure;
    private volatile Joiner joiners;
    /** The thread running the readback (set once, before it runs; read only to recognise itself). */
    private Thread resolver;
    private volatile CompletableFuture<T> stage;
    /** The naive kind's plan, run by the first joiner; null under gpu-reactor, and once claimed. */
    private volatile NaiveWait inline;
    private boolean inlinePlatformOnly;
    /** Where the naive plan runs when a stage is asked for before anyone joins (a new virtual thread). */
    private volatile Executor inlineRunner;
    /**
     * Takes the registration back from the parker: run when the wait is abandoned (cancel,
     * timeout, interrupt), and before a platform joiner runs the plan inline, so that one thread
     * watches a wait at a time (see {@link #withdraw()}). Null where nothing is registered.
     */
    private volatile Runnable withdraw;

    private static final class Joiner {
        final Thread thread;
        Joiner next;

        Joiner(Thread thread) { this.thread = thread; }
    }

    GpuFuture(long id, MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback,
              Executor callbacks, long startNanos, long wakeAtNanos, long spreadNanos, Object pointKey) {
        this.id = id;
        this.wakeAtNanos = wakeAtNanos;
        this.spreadNanos = spreadNanos;
        this.descriptor = descriptor;
        this.port = port;
        this.readback = readback;
        this.callbacks = callbacks;
        this.startNanos = startNanos;
        this.pointKey = pointKey;
    }

    /** A future already failed with {@code error}; used where a wait cannot even start. */
    static <T> GpuFuture<T> failed(MemoryDescriptor d, CompletionPort port, Executor callbacks, ReactorException error) {
        GpuFuture<T> f = new GpuFuture<>(-1, d, port, null, callbacks, 0, 0, 0, null);
        f.fail(error);
        return f;
    }

    public MemoryDescriptor descriptor() { return descriptor; }

    CompletionPort port() { return port; }

    void onWithdraw(Runnable r) { this.withdraw = r; }

    /**
     * Has a joiner run {@code w} itself. With {@code platformOnly}, only a platform-thread joiner
     * does (the std host: a platform thread gains nothing from a handoff), while virtual threads
     * keep waiting for the parker; otherwise (the naive kind) the first joiner does, or
     * {@code runner} does if a stage is asked for first.
     */
    void runInline(NaiveWait w, boolean platformOnly, Executor runner) {
        this.inlinePlatformOnly = platformOnly;
        this.inlineRunner = runner;
        this.inline = w;
    }

    // ---- completion side (parker, registering thread, callers of cancel) ----

    /** The device's word reached the target: PENDING → READY (or COMPLETED when there is no readback). */
    boolean signal() {
        if (readback == null) {
            return settle(PENDING, COMPLETED, null, null);
        }
        if (!STATE.compareAndSet(this, PENDING, READY)) return false;
        wakeJoiners();
        CompletableFuture<T> s = stage;
        if (s != null) callbacks.execute(this::resolveForStage);
        return true;
    }

    /** The port (the error authority) or the line failed this wait. */
    boolean fail(ReactorException error) {
        return settle(PENDING, FAILED, null, error);
    }

    private boolean abandon(int terminal, ReactorException why) {
        if (!settle(PENDING, terminal, null, why)) return false;
        withdraw();
        return true;
    }

    /** Takes the registration back from the parker, if there is one; idempotent. */
    private void withdraw() {
        Runnable r = withdraw;
        if (r != null) r.run();
    }

    private boolean settle(int from, int to, T v, Throwable t) {
        // Claim with a CAS to an intermediate owner-only state so the outcome is written before it is published.
        if (!STATE.compareAndSet(this, from, SETTLING)) return false;
        value = v;
        failure = t;
        // Volatile, not just release: with the read of `stage` below it is the settle half of a
        // Dekker pair against toCompletableFuture (CAS stage, then volatile read of state).
        STATE.setVolatile(this, to);
        wakeJoiners();
        CompletableFuture<T> s = stage;
        if (s != null) completeStage(s);
        return true;
    }

    private void wakeJoiners() {
        Joiner j = (Joiner) JOINERS.getAndSet(this, null);
        for (; j != null; j = j.next) LockSupport.unpark(j.thread);
    }

    // ---- waiting side ----

    /**
     * Waits for the result, parking only the calling virtual thread.
     *
     * @throws ReactorException the coded failure: {@link ErrorCode#Backend} for a failed stream,
     *     {@link ErrorCode#LineClosed}, {@link ErrorCode#Cancelled}, {@link ErrorCode#Timeout},
     *     {@link ErrorCode#Interrupted} (with the thread's interrupt flag set again)
     */
    public T join() {
        try {
            return await(false, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (ReactorException) failure;
        } catch (TimeoutException e) {
            throw new AssertionError("untimed wait timed out", e);
        }
    }

    /**
     * Waits at most {@code limit}; past it the wait ends with {@link ErrorCode#Timeout} and its
     * registration is removed.
     */
    public T join(Duration limit) {
        Objects.requireNonNull(limit, "limit");
        try {
            return await(true, limit.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (ReactorException) failure;
        } catch (TimeoutException e) {
            throw (ReactorException) failure;
        }
    }

    /**
     * {@link Future#get()}: a coded failure comes as the cause of an {@link ExecutionException}; a
     * cancelled wait throws {@link CancellationException} (its cause the coded
     * {@link ErrorCode#Cancelled}), as {@link Future}'s contract says.
     */
    @Override
    public T get() throws InterruptedException, ExecutionException {
        try {
            return await(false, 0);
        } catch (ReactorException e) {
            throw failedGet(e);
        } catch (TimeoutException e) {
            throw new AssertionError("untimed wait timed out", e);
        }
    }

    /** {@link Future#get(long, TimeUnit)}; a timeout ends this wait (see {@link #join(Duration)}). */
    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        try {
            return await(true, unit.toNanos(timeout));
        } catch (ReactorException e) {
            throw failedGet(e);
        }
    }

    /** What {@code get} throws for a wait that ended in {@code e}: cancellation is not a failure. */
    private ExecutionException failedGet(ReactorException e) {
        if ((int) STATE.getAcquire(this) == CANCELLED) {
            CancellationException c = new CancellationException(e.getMessage());
            c.initCause(e);
            throw c;
        }
        return new ExecutionException(e.getMessage(), e);
    }

    private T await(boolean timed, long nanos) throws InterruptedException, TimeoutException {
        long deadline = timed ? System.nanoTime() + nanos : 0;
        boolean keepInterrupt = false;
        try {
            while (true) {
                int s = (int) STATE.getAcquire(this);
                if (s == READY) {
                    resolve();
                    continue;
                }
                if (s >= COMPLETED) return report(s);
                if (Thread.interrupted()) {
                    if (abandon(INTERRUPTED, new ReactorException(ErrorCode.Interrupted, "wait on " + descriptor))) {
                        throw new InterruptedException();
                    }
                    keepInterrupt = true; // another outcome won the race: finish it, then restore the flag
                    continue;
                }
                NaiveWait w = inline;
                if (w != null && (!inlinePlatformOnly || !Thread.currentThread().isVirtual())
                        && INLINE.compareAndSet(this, w, null)) {
                    withdraw();
                    runNaive(w, timed, deadline, nanos);
                    continue;
                }
                // A fresh node per push: a node left on the stack by a timed-out park must not be
                // pushed again (that would make a cycle). Stale nodes cost one spare unpark.
                Joiner me = new Joiner(Thread.currentThread());
                // Push, then re-check: a settle after the push pops us; one before it is seen here.
                Joiner head;
                do {
                    head = joiners;
                    me.next = head;
                } while (!JOINERS.compareAndSet(this, head, me));
                s = (int) STATE.getVolatile(this);
                if (s != PENDING && s != RESOLVING && s != SETTLING) continue;
                if (timed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        if (abandon(TIMED_OUT, new ReactorException(ErrorCode.Timeout, "wait on " + descriptor,
                                Duration.ofNanos(nanos)))) {
                            throw new TimeoutException(failure.getMessage());
                        }
                        continue;
                    }
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
            }
        } finally {
            if (keepInterrupt) Thread.currentThread().interrupt();
        }
    }

    /**
     * The naive kind: this joiner runs the plan itself, then settles the future like a parker would.
     * Its own time limit ends as the parked path's does ({@link TimeoutException}), so
     * {@link #get(long, TimeUnit)} reports a timeout the same way under every kind.
     */
    private void runNaive(NaiveWait w, boolean timed, long deadline, long nanos) throws InterruptedException, TimeoutException {
        try {
            w.run(this, timed ? deadline : Long.MAX_VALUE);
        } catch (NaiveWait.Expired e) {
            if (abandon(TIMED_OUT, new ReactorException(ErrorCode.Timeout, "wait on " + descriptor, Duration.ofNanos(nanos)))) {
                throw new TimeoutException(failure.getMessage());
            }
        } catch (ReactorException e) {
            fail(e);
        } catch (InterruptedException e) {
            if (abandon(INTERRUPTED, new ReactorException(ErrorCode.Interrupted, "wait on " + descriptor))) throw e;
            Thread.currentThread().interrupt();
        }
    }

    /** Runs the readback once, on this thread: READY → RESOLVING → COMPLETED | FAILED. */
    private void resolve() {
        if (!STATE.compareAndSet(this, READY, RESOLVING)) return;
        resolver = Thread.currentThread();
        T v = null;
        Throwable t = null;
        try {
            v = readback.get();
        } catch (Throwable e) {
            t = e instanceof ReactorException re ? re
                    : new ReactorException(ErrorCode.Backend, e, "readback", "of " + descriptor, -1, e.getClass().getSimpleName(), e.getMessage());
        }
        value = v;
        failure = t;
        STATE.setVolatile(this, t == null ? COMPLETED : FAILED); // volatile: see settle
        wakeJoiners();
        CompletableFuture<T> st = stage;
        if (st != null) completeStage(st);
    }

    private void resolveForStage() {
        resolve();
    }

    @SuppressWarnings("unchecked")
    private T report(int s) {
        if (s == COMPLETED) return value;
        Throwable t = failure;
        if (t instanceof ReactorException re) throw re;
        throw new ReactorException(ErrorCode.Backend, t, "readback", "of " + descriptor, -1, String.valueOf(t), "");
    }

    // ---- Future ----

    /** Ends the wait with {@link ErrorCode#Cancelled} if it is still pending; the device work is not stopped. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (abandon(CANCELLED, new ReactorException(ErrorCode.Cancelled, "wait on " + descriptor))) return true;
        int s;
        // Lost the CAS: a winner in SETTLING is a few stores from publishing; another cancel may be it.
        while ((s = (int) STATE.getAcquire(this)) == SETTLING) Thread.onSpinWait();
        return s == CANCELLED;
    }

    @Override
    public boolean isCancelled() { return (int) STATE.getAcquire(this) == CANCELLED; }

    @Override
    public boolean isDone() {
        int s = (int) STATE.getAcquire(this);
        return s >= READY && s != SETTLING; // SETTLING: the outcome is not published yet
    }

    /**
     * {@link Future#state()}. A wait whose device finished is done, and its outcome is the
     * readback's: as the JDK's own {@code state()} does through {@code get()}, this runs a readback
     * nobody ran yet, or waits for the thread running it.
     */
    @Override
    public State state() {
        return stateOf(published());
    }

    /** The coded terminal outcome's code, or {@code null} while running or after success. */
    public ErrorCode failureCode() {
        int s = (int) STATE.getAcquire(this);
        return s > COMPLETED && failure instanceof ReactorException re ? re.code() : null;
    }

    /**
     * {@link Future#resultNow()}: once {@link #isDone()}, the value; the readback runs here if
     * nobody ran it yet, or this waits for the thread running it (it never throws for a wait that
     * is going to complete).
     */
    @Override
    public T resultNow() {
        int s = published();
        if (s != COMPLETED) throw new IllegalStateException("not completed successfully: " + stateOf(s));
        return value;
    }

    /** {@link Future#exceptionNow()}: the coded failure; a cancelled wait is not failed (as the contract says). */
    @Override
    public Throwable exceptionNow() {
        int s = published();
        if (s <= COMPLETED || s == CANCELLED) throw new IllegalStateException("not failed: " + stateOf(s));
        return failure;
    }

    /**
     * The state, with a finished device's readback published first: {@code READY} runs it here,
     * {@code RESOLVING} waits for the thread that runs it (a joiner's wait, uninterruptible here: a
     * wait that is no longer pending cannot be abandoned, so an interrupt only stays set).
     */
    private int published() {
        int s = (int) STATE.getAcquire(this);
        if (s != READY && s != RESOLVING) return s;
        if (s == RESOLVING && resolver == Thread.currentThread()) return s; // asked from inside its own readback
        try {
            await(false, 0);
        } catch (ReactorException failedReadback) {
            // published as FAILED
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("an untimed wait past PENDING cannot be interrupted or time out", e);
        }
        return (int) STATE.getAcquire(this);
    }

    private static State stateOf(int s) {
        return switch (s) {
            case PENDING, READY, RESOLVING, SETTLING -> State.RUNNING;
            case COMPLETED -> State.SUCCESS;
            case CANCELLED -> State.CANCELLED;
            default -> State.FAILED;
        };
    }

    /**
     * A {@link CompletableFuture} completed with this wait's outcome, by the thread that settles it
     * (no extra thread); a readback runs on this future's callback executor. Completing or
     * cancelling the returned stage does not affect this future.
     */
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> s = stage;
        if (s != null) return s;
        CompletableFuture<T> fresh = new CompletableFuture<>();
        if (!STAGE.compareAndSet(this, null, fresh)) return stage;
        // The other half of settle's Dekker pair: a state read before the settle's volatile store
        // (PENDING, SETTLING) means the settle's later read of `stage` sees `fresh` and completes it.
        int st = (int) STATE.getVolatile(this);
        if (st == READY) callbacks.execute(this::resolveForStage);
        else if (st >= COMPLETED) completeStage(fresh);
        else if (st == PENDING) runInlineForStage();
        return fresh;
    }

    /**
     * The naive kind with nobody joining: no parker will ever settle this wait, so the stage's
     * runner runs the plan (once: it claims the plan as a joiner would; a joiner that comes later
     * parks until the runner settles the future). If the runner refuses (the reactor closed), the
     * wait fails with {@link ErrorCode#ShutDown}, as a wait started on a closed reactor does.
     */
    private void runInlineForStage() {
        NaiveWait w = inline;
        if (w == null || inlineRunner == null || !INLINE.compareAndSet(this, w, null)) return;
        try {
            inlineRunner.execute(() -> {
                try {
                    runNaive(w, false, 0, 0);
                } catch (InterruptedException | TimeoutException e) {
                    // The future is settled (interrupted); the stage completed with that outcome.
                }
            });
        } catch (RuntimeException e) {
            fail(new ReactorException(ErrorCode.ShutDown, "reactor"));
        }
    }

    /**
     * Runs {@code action} with the result or the failure once the wait ends, on {@code executor}
     * (never on the parker thread, which would stall every other waiter of its line).
     */
    public GpuFuture<T> onComplete(BiConsumer<? super T, ? super Throwable> action, Executor executor) {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(executor, "executor");
        toCompletableFuture().whenCompleteAsync(action, executor);
        return this;
    }

    /** {@link #onComplete(BiConsumer, Executor)} on this future's callback executor. */
    public GpuFuture<T> onComplete(BiConsumer<? super T, ? super Throwable> action) {
        return onComplete(action, callbacks);
    }

    private void completeStage(CompletableFuture<T> s) {
        int st = (int) STATE.getAcquire(this);
        if (st == COMPLETED) s.complete(value);
        else if (st > COMPLETED) s.completeExceptionally(failure);
    }

    int rawState() { return (int) STATE.getAcquire(this); }

    @Override
    public String toString() {
        return "GpuFuture[" + descriptor + ", " + stateOf((int) STATE.getAcquire(this)) + "]"; // never runs the readback
    }
}
