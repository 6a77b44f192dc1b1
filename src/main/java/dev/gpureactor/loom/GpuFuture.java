package dev.gpureactor.loom;

import dev.gpureactor.parker.Reports;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.parker.WaitEvent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * One wait on device work: a {@link MemoryDescriptor} (the word its stream stores behind the work),
 * the {@link CompletionPort} that is the error authority, and an optional readback that turns the
 * finished work into a value. {@link GpuReactor#await} makes one; {@link #join()} waits for it.
 *
 * <pre>{@code
 * GpuFuture<float[]> f = reactor.await(signal.descriptor(), signal.port(), () -> copyBack(out));
 * float[] result = f.join();   // on a virtual thread: parks only the virtual thread
 * }</pre>
 *
 * <p><b>What moves it.</b> Only the device (its word reached, or its port saying done or failed),
 * {@link #cancel}, and the reactor or the line closing change a {@code GpuFuture}. A caller's own
 * limit or interrupt ends only that caller's wait, as with {@link java.util.concurrent.FutureTask}:
 * {@code get(timeout)} throws {@link TimeoutException}, {@link #join(Duration)} a coded
 * {@link ErrorCode#Timeout}, an interrupted {@code get} {@link InterruptedException} and an
 * interrupted {@code join} a coded {@link ErrorCode#Interrupted} (flag set again); the future stays
 * pending, stays watched, and later completes for everyone else. Exactly one of device completion,
 * a failure and a cancel wins, and every caller sees that one.
 *
 * <p><b>Outcomes as the JDK reports them.</b> A readback's own exception, whatever its type, is the
 * failure: {@link #exceptionNow()} and {@link ExecutionException#getCause()} return it, and {@link #join()}
 * throws a {@link CompletionException} whose cause it is (as {@link CompletableFuture#join} does).
 * Device, port and lifecycle failures are coded {@link ReactorException}s ({@link #failureCode()});
 * {@code join} throws a fresh one with the same code, whose stack is the joiner's own and whose
 * cause is the shared one. A cancelled wait is not failed: {@code get} throws {@link CancellationException}.
 *
 * <p><b>Where code runs.</b> The readback runs once, on a joining thread, or on the callback
 * executor when nobody joins; never on a parker. {@link #join()} and {@link #get()} on a virtual
 * thread park only that virtual thread. Once {@link #isDone()}, whatever the device's work wrote
 * before its word is visible to the thread that sees the outcome. Stage callbacks
 * ({@link #toCompletableFuture()}, {@link #onComplete}) never run on a parker or a carrier; a
 * {@code cancel} runs dependent stages on its caller, as the JDK's stages do.
 *
 * <p>Under {@code gpu-reactor} a platform thread joining without a limit runs the plan itself (a
 * handoff gains it nothing), as the first joiner under {@code naive}; a {@code cancel} ends its wait at
 * once, an interrupt hands the plan on. With a limit it leaves the wait to the parker, as a virtual thread.
 *
 * @param <T> the readback's result
 */
public final class GpuFuture<T> extends FutureStage<T> implements Future<T> {
    // The state machine: docs/DESIGN.md §7; its handshakes ("one outcome", "cancel's answer", "inline takeover"): §5.

    /** Ordered: below {@code COMPLETED} nothing is published; {@code SETTLING} is a PENDING-settle's owner-only state. */
    static final int PENDING = 0, READY = 1, RESOLVING = 2, SETTLING = 3, COMPLETED = 4, FAILED = 5, CANCELLED = 6;

    private static final VarHandle STATE, PLAN_TAKEN;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(GpuFuture.class, "state", int.class);
            PLAN_TAKEN = l.findVarHandle(GpuFuture.class, "planTaken", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The registration node: what the parker holds of this wait (made here, final, published with the future). */
    final LineWait lineWait;
    private final Supplier<? extends T> readback;
    /** Who may run the plan on the joining thread; given at construction, shared by the reactor's awaits. */
    private final Inline inline;

    /** Written only by §7's transitions; read acquire before an outcome, volatile where it closes a §5 Dekker pair. */
    private volatile int state;
    /** Published by the terminal state store; read after an acquire load that saw it. */
    private T value;
    /** The coded failure, or a readback's own exception; published by the state store. */
    private Throwable failure;
    /** The readback's thread: set once, before it runs; so once FAILED, set means the readback threw (null: coded). */
    private Thread resolver;
    /** Whether a thread has taken the {@link Inline.Plan} over: one CAS false → true, never reset. */
    private volatile boolean planTaken;

    /** A wait outside a reactor (tests, rigs): no plan label, nobody runs the plan inline. */
    GpuFuture(long id, MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback,
              Executor callbacks, long startNanos, long wakeAtNanos, long spreadNanos, Object pointKey) {
        this(id, descriptor, port, readback, callbacks, startNanos, wakeAtNanos, wakeAtNanos, spreadNanos, pointKey, null, Inline.NONE, Reports.IN_PLACE);
    }

    GpuFuture(long id, MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback,
              Executor callbacks, long startNanos, long wakeAtNanos, long resumeAtNanos, long spreadNanos, Object pointKey,
              String planLabel, Inline inline, Reports reports) {
        this(id, descriptor, port, readback, callbacks, startNanos, wakeAtNanos, resumeAtNanos, spreadNanos, pointKey, planLabel, inline,
                reports, FutureControls.NONE);
    }

    /** As the reactor makes one, with the lines {@code controls} removes (jcstress negative controls). */
    GpuFuture(long id, MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback,
              Executor callbacks, long startNanos, long wakeAtNanos, long resumeAtNanos, long spreadNanos, Object pointKey,
              String planLabel, Inline inline, Reports reports, FutureControls controls) {
        super(callbacks, controls);
        this.readback = readback;
        this.inline = Objects.requireNonNull(inline, "inline");
        // The node's fields are final: whoever receives the node (the parker, through its inbox) sees them.
        this.lineWait = new FutureNode(this, id, descriptor, port, startNanos, wakeAtNanos, resumeAtNanos, spreadNanos, pointKey, planLabel, reports);
    }

    /** A future already failed with {@code error}; used where a wait cannot even start. */
    static <T> GpuFuture<T> failed(MemoryDescriptor d, CompletionPort port, Executor callbacks, ReactorException error) {
        GpuFuture<T> f = new GpuFuture<>(-1, d, port, null, callbacks, 0, 0, 0, null);
        f.fail(error);
        return f;
    }

    /**
     * The word this wait is on: its line, slot and target.
     *
     * @return the wait's descriptor
     */
    public MemoryDescriptor descriptor() { return lineWait.descriptor(); }

    /** The device's word reached the target: PENDING → READY (or COMPLETED when there is no readback). */
    boolean signal() {
        if (readback == null) {
            return settle(PENDING, COMPLETED, null, null);
        }
        if (WaitEvent.enabled()) lineWait.seenNanos = System.nanoTime(); // JFR: seen → running; the CAS below publishes it
        if (!STATE.compareAndSet(this, PENDING, READY)) return lost();
        wakeJoiners();
        if (hasStage()) dispatch(callbacks, this::resolve); // never the readback on the signalling thread (a parker)
        return true;
    }

    /** The port (the error authority) or the line failed this wait. */
    boolean fail(ReactorException error) {
        return settle(PENDING, FAILED, null, error);
    }

    /** One CAS out of {@code from} (the only winner), the outcome, then its publication; false when another move won. */
    private boolean settle(int from, int to, T v, Throwable t) {
        // Claim with a CAS to an intermediate owner-only state so the outcome is written before it is published.
        if (!STATE.compareAndSet(this, from, SETTLING)) return lost();
        value = v;       // plain: published by the volatile state store below
        failure = t;
        STATE.setVolatile(this, to); // volatile: the settle's half of "stage vs settle" and "joiner stack" (DESIGN §5)
        wakeJoiners();
        publishToStage();
        if (WaitEvent.enabled()) WaitEvent.commit(lineWait, FutureReports.outcome(to), FutureReports.code(t), 0, System.nanoTime());
        return true;
    }

    /** A move that lost its CAS waits out a winner in {@code SETTLING}, so it sees the outcome (§5 "one outcome"). */
    private boolean lost() {
        while ((int) STATE.getAcquire(this) == SETTLING) Thread.onSpinWait(); // acquire: the winner's outcome
        return false;
    }

    /** After {@code register} (its CAS: the joiner's write of the Dekker pair), re-reads the state: {@code true} (still {@code seen}) lets the caller park (DESIGN §5 "joiner stack"). */
    @Override
    boolean recheck(int seen) {
        if (controls.skipsJoinerRecheck()) return true; // negative control: the line that prevents the lost wake, removed
        return volatileState() == seen; // volatile, not acquire: a Dekker read must not pass the registration's CAS
    }

    /** Whether the wait is still undecided: a volatile load (the re-check half of the joiner's Dekker pair). */
    boolean isPending() { return volatileState() == PENDING; }

    @Override
    int volatileState() { return (int) STATE.getVolatile(this); }

    /**
     * Waits for the result, parking only the calling virtual thread.
     *
     * @throws CompletionException the readback threw (its exception is the cause), as
     *     {@link CompletableFuture#join()} reports it
     * @throws ReactorException a coded failure, fresh for this caller (the shared one its cause):
     *     {@link ErrorCode#Backend} for a failed stream or port, {@link ErrorCode#LineClosed},
     *     {@link ErrorCode#ShutDown}, {@link ErrorCode#Cancelled}; or {@link ErrorCode#Interrupted}
     *     when this caller was interrupted (flag set again; the future does not change); or
     *     {@link ErrorCode#InvalidArgument} when called from this future's own readback, which it would wait for
     *
     * @return the readback's result
     */
    public T join() { return joinFor(null); }

    /**
     * As {@link #join()}, waiting at most {@code limit} (saturated: a limit too long for a
     * {@code long} of nanoseconds waits for ever). Past it this caller's wait ends with a coded
     * {@link ErrorCode#Timeout}; the future does not change: it stays pending, keeps its
     * registration, and completes later for everyone else.
     *
     * @param limit how long to wait at most
     * @return the readback's result
     */
    public T join(Duration limit) { return joinFor(Objects.requireNonNull(limit, "limit")); }

    /** {@code join}, untimed for a null {@code limit}: an interrupt or the limit becomes a coded failure. */
    private T joinFor(Duration limit) {
        try {
            long nanos = limit == null ? 0 : TimeUnit.NANOSECONDS.convert(limit);
            return FutureReports.joined(awaitDone(true, limit != null, nanos), value, failure, resolver != null); // left to right: after the acquire
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReactorException(ErrorCode.Interrupted, "wait on " + lineWait.descriptor());
        } catch (TimeoutException e) {
            throw new ReactorException(ErrorCode.Timeout, "wait on " + lineWait.descriptor(), Durations.text(limit));
        }
    }

    /**
     * {@link Future#get()}: a failure comes as the cause of an {@link ExecutionException} (a
     * readback's own exception, or the coded failure); a cancelled wait throws
     * {@link CancellationException} (its cause the coded {@link ErrorCode#Cancelled}). An interrupt
     * ends only this caller's wait.
     */
    @Override
    public T get() throws InterruptedException, ExecutionException {
        try {
            return FutureReports.got(awaitDone(true, false, 0), value, failure);
        } catch (TimeoutException e) {
            throw new AssertionError("untimed wait timed out", e);
        }
    }

    /** {@link Future#get(long, TimeUnit)}; a timeout ends only this caller's wait (see {@link #join(Duration)}). */
    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        return FutureReports.got(awaitDone(true, true, unit.toNanos(timeout)), value, failure);
    }

    /**
     * The inline takeover (DESIGN §5): a joiner the policy allows claims the plan (one CAS: one
     * watcher at a time), leaves the stack and the parker's watch before its first query, and runs it.
     */
    @Override
    boolean ranPlan(Joiner me, boolean timed, long start, long nanos) throws InterruptedException, TimeoutException {
        return inline instanceof Inline.Plan p && p.takenBy(Thread.currentThread(), timed) && NaiveRunner.joinerRuns(this, p, me, timed, start, nanos);
    }

    /** Claims the {@link Inline.Plan}: true for the one thread that runs it (or hands it to the runner). */
    boolean claimPlan() {
        return PLAN_TAKEN.compareAndSet(this, false, true); // volatile CAS: joiners and the stage's runner race for it
    }

    @Override boolean resolvingHere() { return resolver == Thread.currentThread(); } // plain: only the resolver sees itself
    /** Runs the readback once, on this thread: READY → RESOLVING → COMPLETED | FAILED. */
    @Override
    void resolve() {
        if (!STATE.compareAndSet(this, READY, RESOLVING)) return; // volatile CAS: one resolver
        resolver = Thread.currentThread(); // plain: only this thread compares it with itself
        long seen = lineWait.seenNanos, running = seen != 0 ? System.nanoTime() : 0; // JFR only: 0 while the event is off
        T v = null;
        Throwable t = null;
        try {
            v = readback.get();
        } catch (Throwable e) {
            t = e; // the readback's own exception is the failure, as FutureTask reports its task's
        }
        value = v;       // plain: published by the volatile state store below
        failure = t;
        STATE.setVolatile(this, t == null ? COMPLETED : FAILED); // volatile: see settle
        wakeJoiners();
        publishToStage();
        if (WaitEvent.enabled()) WaitEvent.commit(lineWait, t == null ? "COMPLETED" : "FAILED", "", seen, running != 0 ? running : System.nanoTime()); // no code: the readback's
    }

    /**
     * Ends the wait with {@link ErrorCode#Cancelled} if it is still pending, releasing every joiner
     * at once (one running a {@code flag} or {@code poll} plan included; one inside a {@code block}
     * plan's vendor wait, which has no bound, once it returns); the device work is not stopped.
     *
     * @return {@code true} only for the call that cancelled it, as {@link java.util.concurrent.FutureTask}'s:
     *     {@code false} once the device finished, the wait failed, or another call cancelled it
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (settle(PENDING, CANCELLED, null, new ReactorException(ErrorCode.Cancelled, "wait on " + lineWait.descriptor()))) {
            lineWait.withdraw(); // after the win: the parker drops it at its next drain
            return true;
        }
        // Lost the CAS: only the cancel that moved the future answers true (§5 "cancel's answer").
        return controls.cancelAnswersState() && (int) STATE.getAcquire(this) == CANCELLED; // negative control: the old answer, "it is cancelled"
    }

    @Override
    public boolean isCancelled() { return (int) STATE.getAcquire(this) == CANCELLED; } // acquire: as every outcome read

    @Override
    public boolean isDone() {
        int s = (int) STATE.getAcquire(this); // acquire: a caller told "done" then reads the outcome
        return s >= READY && s != SETTLING; // SETTLING: the outcome is not published yet
    }

    /**
     * {@link Future#state()}. A wait whose device finished is done once a watcher saw it (a parker; a
     * join or stage running a {@code poll}, {@code block} or {@code naive} plan: this runs none, so such
     * a wait polled alone stays {@code RUNNING}), its outcome the readback's: as the JDK's does through
     * {@code get()}, this runs a readback nobody ran yet, or waits for the thread running it.
     */
    @Override
    public State state() {
        return FutureReports.stateOf(published());
    }

    /**
     * The coded terminal outcome's code, or {@code null} while running, after success, and when
     * the readback's own exception failed the wait (it carries no code).
     *
     * @return the failure's code
     */
    public ErrorCode failureCode() {
        int s = (int) STATE.getAcquire(this); // acquire: then `failure`, published by the store it saw
        return s > COMPLETED && resolver == null && failure instanceof ReactorException re ? re.code() : null;
    }

    /**
     * {@link Future#resultNow()}: once {@link #isDone()}, the value; the readback runs here if
     * nobody ran it yet, or this waits for the thread running it (it never throws for a wait that
     * is going to complete).
     */
    @Override
    public T resultNow() {
        int s = published();
        if (s != COMPLETED) throw new IllegalStateException("not completed successfully: " + FutureReports.stateOf(s));
        return value;
    }

    /**
     * {@link Future#exceptionNow()}: the readback's own exception, or the coded failure; a
     * cancelled wait is not failed (as the contract says).
     */
    @Override
    public Throwable exceptionNow() {
        int s = published();
        if (s <= COMPLETED || s == CANCELLED) throw new IllegalStateException("not failed: " + FutureReports.stateOf(s));
        return failure;
    }

    /**
     * The state, with a finished device's readback published first: {@code READY} runs it here,
     * {@code RESOLVING} waits for the thread that runs it (uninterruptibly: an interrupt stays set).
     */
    private int published() {
        int s = (int) STATE.getAcquire(this); // acquire: the caller reads the outcome of a terminal state
        if (s != READY && s != RESOLVING) return s;
        if (s == RESOLVING && resolvingHere()) return s; // asked from inside its own readback
        try {
            return awaitDone(false, false, 0);
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("an uninterruptible untimed wait ended early", e);
        }
    }

    /**
     * A new {@link CompletableFuture} completed with this wait's outcome: by the thread that settles
     * it, or on the callback executor when that thread is a parker (no dependent stage runs on a
     * parker); a readback runs on the callback executor. A failure is the same exception
     * {@link #exceptionNow()} returns (not wrapped); a cancelled wait's stage is cancelled
     * ({@code isCancelled()}, {@code state()} {@code CANCELLED}; its {@link CancellationException}'s
     * cause is the coded {@link ErrorCode#Cancelled}), so the stage's state is always this future's.
     *
     * <p><b>Each call returns its own stage.</b> It is a dependent copy of an internal stage that no
     * caller ever sees, as {@link CompletableFuture#minimalCompletionStage()}{@code .toCompletableFuture()}
     * and {@link CompletableFuture#copy()} make one (unlike {@code copy()}, a failure is not wrapped
     * in a {@link CompletionException}). Whatever a caller does to its stage ({@code complete},
     * {@code obtrudeValue}, {@code cancel}, {@code completeExceptionally}) changes that stage alone:
     * not this future, not {@link #get()} or {@link #join()}, not {@link #onComplete}, and not the
     * stage of any other call. A {@link CompletableFuture} that {@code toCompletableFuture()} returns
     * itself is one mutable object shared by every caller; this one is not.
     *
     * @return a new stage of this wait's outcome, the caller's own
     */
    public CompletableFuture<T> toCompletableFuture() {
        return copyOf(stage());
    }

    /**
     * The naive kind with nobody joining: no parker will ever settle this wait, so the runner runs
     * the plan (once: it claims the plan as a joiner would; a joiner that comes later parks until
     * the runner settles the future).
     */
    @Override
    void runInlineForStage() {
        if (inline instanceof Inline.Plan p && p.runsForStage() && claimPlan()) {
            NaiveRunner.handOff(this, p);
        }
    }

    /**
     * Runs {@code action} with the result or the failure once the wait ends, on {@code executor}
     * (never on the parker thread, which would stall every other waiter of its line). The failure is
     * what the stage holds: the readback's own exception, a coded {@link ReactorException}, or for a
     * cancelled wait a {@link CancellationException} whose cause is the coded {@link ErrorCode#Cancelled}.
     * What the action throws goes to the uncaught-exception handler of the thread that ran it, as
     * what a task given to {@link Executor#execute} throws does: this method returns the future, not
     * a stage that could hold it. An {@code executor} that refuses it (closed) leaves it to a new
     * virtual thread of the JDK's scheduler: a refusal must not drop it.
     *
     * @param action called once with the value, or with the failure
     * @param executor where the action runs
     * @return this future
     */
    public GpuFuture<T> onComplete(BiConsumer<? super T, ? super Throwable> action, Executor executor) {
        whenStageCompletes(Objects.requireNonNull(action, "action"), Objects.requireNonNull(executor, "executor"));
        return this;
    }

    /**
     * {@link #onComplete(BiConsumer, Executor)} on this future's callback executor.
     *
     * @param action called once with the value, or with the failure
     * @return this future
     */
    public GpuFuture<T> onComplete(BiConsumer<? super T, ? super Throwable> action) {
        return onComplete(action, callbacks);
    }

    @Override
    void completeStage(CompletableFuture<T> s) {
        int st = (int) STATE.getAcquire(this); // acquire: then value/failure
        complete(s, st, value, failure);
    }

    /** The raw state (tests, the parker's scan, the naive driver's abandonment check): acquire, as every outcome read. */
    @Override
    int rawState() { return (int) STATE.getAcquire(this); }

    @Override
    public String toString() {
        return "GpuFuture[" + lineWait.descriptor() + ", " + FutureReports.stateOf((int) STATE.getAcquire(this)) + "]"; // never runs the readback
    }
}
