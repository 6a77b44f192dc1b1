package dev.gpureactor.loom;

import dev.gpureactor.parker.WaitEvent;
import dev.gpureactor.parker.ParkerThread;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.core.Clock;
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
import java.util.concurrent.CompletionException;
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
 * <p><b>Outcomes as the JDK reports them.</b> A readback's own exception is the failure:
 * {@link #exceptionNow()} and {@link ExecutionException#getCause()} return it, and {@link #join()}
 * throws a {@link CompletionException} whose cause it is (as {@link CompletableFuture#join} does).
 * Device, port and lifecycle failures are coded {@link ReactorException}s ({@link #failureCode()});
 * {@code join} throws a fresh one with the same code, whose stack is the joiner's own and whose
 * cause is the shared one. A cancelled wait is not failed: {@code get} throws
 * {@link CancellationException}.
 *
 * <p><b>Where code runs.</b> The readback runs once, on a joining thread, or on the callback
 * executor when nobody joins; never on a parker. {@link #join()} and {@link #get()} on a virtual
 * thread park only that virtual thread. Once {@link #isDone()}, whatever the device's work wrote
 * before its word is visible to the thread that sees the outcome. Stage callbacks
 * ({@link #toCompletableFuture()}, {@link #onComplete}) never run on a parker; a {@code cancel}
 * runs dependent stages on its caller, as the JDK's stages do.
 *
 * <p>A platform thread that joins a wait under {@code gpu-reactor} runs the wait's plan itself (it
 * gains nothing from a handoff to a parker), as the first joiner does under the {@code naive} kind;
 * a {@code cancel} still ends its wait at once, and if its own limit or interrupt ends it first, the
 * plan goes on on another thread.
 *
 * @param <T> the readback's result
 */
public final class GpuFuture<T> implements Future<T> {
    /*
     * The Future state machine; the parker holds only its registration node (Node, a LineWait,
     * final here) and settles the future through it. Every move out of PENDING is one CAS; a settle
     * with an outcome CASes to the owner-only SETTLING, writes value and failure, then publishes the
     * terminal state (volatile store); a losing move (signal, fail, cancel) waits SETTLING out and answers
     * false, so isDone() holds once it has (GpuFutureLincheckTest checks every move against a model). READY
     * means the device is done; the readback then runs once (READY -> RESOLVING, a CAS), on a
     * joining thread, or on the callback executor for a stage nobody joins. Joiners park on a
     * Treiber stack (as FutureTask's), popped whole after each state store; a node is per phase.
     * The first joiner the Inline policy allows takes the plan over (one CAS on planTaken),
     * withdraws its registration, and runs it (NaiveRunner); the stage adapter is FutureStage.
     * Each handshake's argument and its jcstress proof: docs/DESIGN.md §5 ("joiner stack", "one
     * outcome", "cancel's answer", "stage vs settle", "inline takeover"); the states: §7.
     */

    /** Ordered: below {@code COMPLETED} nothing is published; {@code SETTLING} is a PENDING-settle's owner-only state. */
    static final int PENDING = 0, READY = 1, RESOLVING = 2, SETTLING = 3, COMPLETED = 4, FAILED = 5, CANCELLED = 6;

    /** A limit this long (146 years) is no limit: {@code start + limit} would overflow. */
    private static final long FOREVER_NANOS = 1L << 62;

    private static final VarHandle STATE, JOINERS, STAGE, PLAN_TAKEN;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(GpuFuture.class, "state", int.class);
            JOINERS = l.findVarHandle(GpuFuture.class, "joiners", Joiner.class);
            STAGE = l.findVarHandle(GpuFuture.class, "stage", CompletableFuture.class);
            PLAN_TAKEN = l.findVarHandle(GpuFuture.class, "planTaken", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The registration node: what the parker holds of this wait (made here, final, published with the future). */
    final LineWait lineWait;
    private final Supplier<? extends T> readback;
    private final Executor callbacks;
    /** Who may run the plan on the joining thread; given at construction, shared by the reactor's awaits. */
    private final Inline inline;

    /**
     * The state; every write is one of the transitions of docs/DESIGN.md §7's table. Reads: acquire
     * where the reader then reads the outcome; volatile where the read closes a Dekker pair (a
     * joiner's re-check after its push, the stage's re-check after its CAS, {@link #isPending}).
     */
    private volatile int state;
    /** Published by the terminal state store; read after an acquire load that saw it. */
    private T value;
    /** The coded failure, or a readback's own exception; published by the state store. */
    private Throwable failure;
    /** The Treiber stack of waiting threads: pushed by CAS, popped whole by getAndSet after each state move. */
    private volatile Joiner joiners;
    /** The thread running the readback (set once, before it runs; read only to recognise itself). */
    private Thread resolver;
    /**
     * The internal stage, once asked for: CAS from null (one stage), then volatile read by the settle
     * (Dekker, see overview). Never handed out: {@link #toCompletableFuture} gives each caller a copy.
     */
    private volatile CompletableFuture<T> stage;
    /** Whether a thread has taken the {@link Inline.Plan} over: one CAS false → true, never reset. */
    private volatile boolean planTaken;
    /** The lines a jcstress negative control removes; {@link FutureControls#NONE} in the library. */
    private final FutureControls controls;

    /** A waiting thread; {@code thread} is cleared by the waker or by the joiner leaving early (then unlinked). */
    static final class Joiner {
        volatile Thread thread;
        volatile Joiner next;

        Joiner(Thread thread) { this.thread = thread; }
    }

    /** A wait outside a reactor (tests, rigs): no plan label, nobody runs the plan inline. */
    GpuFuture(long id, MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback,
              Executor callbacks, long startNanos, long wakeAtNanos, long spreadNanos, Object pointKey) {
        this(id, descriptor, port, readback, callbacks, startNanos, wakeAtNanos, wakeAtNanos, spreadNanos, pointKey, null, Inline.NONE);
    }

    GpuFuture(long id, MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback,
              Executor callbacks, long startNanos, long wakeAtNanos, long resumeAtNanos, long spreadNanos, Object pointKey,
              String planLabel, Inline inline) {
        this(id, descriptor, port, readback, callbacks, startNanos, wakeAtNanos, resumeAtNanos, spreadNanos, pointKey, planLabel, inline,
                FutureControls.NONE);
    }

    /** As the reactor makes one, with the lines {@code controls} removes (jcstress negative controls). */
    GpuFuture(long id, MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback,
              Executor callbacks, long startNanos, long wakeAtNanos, long resumeAtNanos, long spreadNanos, Object pointKey,
              String planLabel, Inline inline, FutureControls controls) {
        this.controls = controls;
        this.readback = readback;
        this.callbacks = callbacks;
        this.inline = Objects.requireNonNull(inline, "inline");
        // The node's fields are final: whoever receives the node (the parker, through its inbox) sees them.
        this.lineWait = new Node(id, descriptor, port, startNanos, wakeAtNanos, resumeAtNanos, spreadNanos, pointKey, planLabel);
    }

    /** This future's registration node: it settles this future, and nothing else of it. */
    private final class Node extends LineWait {
        Node(long id, MemoryDescriptor descriptor, CompletionPort port, long startNanos, long wakeAtNanos, long resumeAtNanos,
             long spreadNanos, Object pointKey, String planLabel) {
            super(id, descriptor, port, startNanos, wakeAtNanos, resumeAtNanos, spreadNanos, pointKey, planLabel);
        }

        @Override public boolean signal() { return GpuFuture.this.signal(); }

        @Override public boolean fail(ReactorException error) { return GpuFuture.this.fail(error); }

        @Override public boolean isPending() { return rawState() == PENDING; }
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

    // ---- completion side (parker, registering thread, callers of cancel) ----

    /** The device's word reached the target: PENDING → READY (or COMPLETED when there is no readback). */
    boolean signal() {
        if (readback == null) {
            return settle(PENDING, COMPLETED, null, null);
        }
        if (WaitEvent.enabled()) lineWait.seenNanos = System.nanoTime(); // JFR: seen → running; the CAS below publishes it
        if (!STATE.compareAndSet(this, PENDING, READY)) return lost();
        wakeJoiners();
        CompletableFuture<T> s = stage; // volatile: after the state CAS, so a stage CASed before it is seen
        if (s != null) FutureStage.dispatch(callbacks, this::resolve); // never the readback on the signalling thread (a parker)
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
        // Volatile, not just release: with the read of `stage` below it is the settle half of a
        // Dekker pair against toCompletableFuture (CAS stage, then volatile read of state), and
        // with the pop below the settle half of the one against a joiner's push-then-recheck.
        STATE.setVolatile(this, to);
        wakeJoiners();
        publishToStage();
        if (WaitEvent.enabled()) WaitEvent.commit(lineWait, outcome(to), code(t), 0, System.nanoTime());
        return true;
    }

    /**
     * A move that lost its CAS: a winner in the owner-only {@code SETTLING} is a few stores from
     * publishing, so wait them out; a caller told {@code false} (another move won) then sees the
     * winner's outcome ({@code isDone()}), as a losing {@code FutureTask.cancel}'s caller does.
     * Without it a close that fails every wait could return while one of them still reads pending.
     */
    private boolean lost() {
        while ((int) STATE.getAcquire(this) == SETTLING) Thread.onSpinWait(); // acquire: the winner's outcome
        return false;
    }

    /** Pops the whole joiner stack (after the state store) and unparks every thread still on it. */
    private void wakeJoiners() {
        Joiner j = (Joiner) JOINERS.getAndSet(this, null); // volatile, after the state store: a node pushed before it is popped here
        for (; j != null; j = j.next) {
            Thread t = j.thread; // volatile: a joiner that left early cleared it
            if (t != null) {
                j.thread = null; // volatile: tells the joiner (and a jcstress arbiter) it was woken
                LockSupport.unpark(t);
            }
        }
    }

    /** Pushes {@code me}; the caller then re-checks the state with a volatile load (Dekker with the settle). */
    void push(Joiner me) {
        Joiner head;
        do {
            head = joiners; // volatile: the CAS below checks it anyway
            me.next = head;
        } while (!JOINERS.compareAndSet(this, head, me)); // volatile CAS: the joiner's write of the Dekker pair
    }

    /**
     * Pushes {@code me}, then re-reads the state with a volatile load: {@code true} when it is
     * still {@code seen}, so the caller may park (a move after the push pops and unparks it).
     * The push CAS and this load are the joiner's half of a Dekker pair whose other half is the
     * settle's volatile state store followed by its pop: one of the two sees the other.
     */
    boolean pushThenRecheck(Joiner me, int seen) {
        push(me);
        if (controls.skipsJoinerRecheck()) return true; // negative control: the line that prevents the lost wake, removed
        return (int) STATE.getVolatile(this) == seen; // volatile, not acquire: a Dekker read must not pass the push CAS
    }

    /**
     * A joiner leaving early takes its node off the stack, so repeated timed waits on a long wait
     * do not grow it ({@code FutureTask.removeWaiter}: clear the thread, then unlink every cleared
     * node, restarting when a race with another unlinker is seen).
     */
    void unlink(Joiner me) {
        if (me == null) return;
        me.thread = null; // volatile: a waker skips it, another unlinker drops it
        retry:
        while (true) {
            for (Joiner pred = null, q = joiners, s; q != null; q = s) { // volatile reads: a racing pop or push restarts nothing unsafe
                s = q.next;
                if (q.thread != null) {
                    pred = q;
                } else if (pred != null) {
                    pred.next = s;
                    if (pred.thread == null) continue retry; // pred was unlinked under us
                } else if (!JOINERS.compareAndSet(this, q, s)) { // the head: only by CAS, pushes race for it
                    continue retry;
                }
            }
            return;
        }
    }

    /** Whether the wait is still undecided: a volatile load (the re-check half of the joiner's Dekker pair). */
    boolean isPending() { return (int) STATE.getVolatile(this) == PENDING; }

    // ---- waiting side ----

    /**
     * Waits for the result, parking only the calling virtual thread.
     *
     * @throws CompletionException the readback threw (its exception is the cause), as
     *     {@link CompletableFuture#join()} reports it
     * @throws ReactorException a coded failure, fresh for this caller (the shared one its cause):
     *     {@link ErrorCode#Backend} for a failed stream or port, {@link ErrorCode#LineClosed},
     *     {@link ErrorCode#ShutDown}, {@link ErrorCode#Cancelled}; or {@link ErrorCode#Interrupted}
     *     when this caller was interrupted (flag set again; the future does not change)
     *
     * @return the readback's result
     */
    public T join() {
        try {
            return joined(awaitDone(true, false, 0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReactorException(ErrorCode.Interrupted, "wait on " + lineWait.descriptor());
        } catch (TimeoutException e) {
            throw new AssertionError("untimed wait timed out", e);
        }
    }

    /**
     * As {@link #join()}, waiting at most {@code limit} (saturated: a limit too long for a
     * {@code long} of nanoseconds waits for ever). Past it this caller's wait ends with a coded
     * {@link ErrorCode#Timeout}; the future does not change: it stays pending, keeps its
     * registration, and completes later for everyone else.
     *
     * @param limit how long to wait at most
     * @return the readback's result
     */
    public T join(Duration limit) {
        Objects.requireNonNull(limit, "limit");
        try {
            return joined(awaitDone(true, true, TimeUnit.NANOSECONDS.convert(limit)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReactorException(ErrorCode.Interrupted, "wait on " + lineWait.descriptor());
        } catch (TimeoutException e) {
            throw new ReactorException(ErrorCode.Timeout, "wait on " + lineWait.descriptor(), limit);
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
            return got(awaitDone(true, false, 0));
        } catch (TimeoutException e) {
            throw new AssertionError("untimed wait timed out", e);
        }
    }

    /** {@link Future#get(long, TimeUnit)}; a timeout ends only this caller's wait (see {@link #join(Duration)}). */
    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        return got(awaitDone(true, true, unit.toNanos(timeout)));
    }

    /** What {@code join} reports for terminal state {@code s}: each exception is new, with this caller's stack. */
    private T joined(int s) {
        if (s == COMPLETED) return value;
        Throwable t = failure;
        if (t instanceof ReactorException re) throw new ReactorException(re.code(), re, re.args().toArray());
        throw new CompletionException(t);
    }

    /** What {@code get} reports for terminal state {@code s}: cancellation is not a failure. */
    private T got(int s) throws ExecutionException {
        if (s == COMPLETED) return value;
        Throwable t = failure;
        if (s == CANCELLED) throw FutureStage.cancellation(t);
        throw new ExecutionException(t);
    }

    /**
     * Waits until the future is terminal and returns its state. {@code interruptible}: an interrupt
     * ends this caller's wait ({@link InterruptedException}, flag cleared); otherwise it is kept for
     * the caller. {@code timed}: past {@code nanos} this caller's wait ends ({@link TimeoutException}).
     * Neither changes the future.
     */
    private int awaitDone(boolean interruptible, boolean timed, long nanos) throws InterruptedException, TimeoutException {
        final long start = timed ? System.nanoTime() : 0;
        if (timed && nanos >= FOREVER_NANOS) timed = false;
        if (timed && nanos < 0) nanos = 0; // a past limit is no wait; Long.MIN_VALUE - elapsed would wrap to "for ever"
        boolean keepInterrupt = false;
        Joiner me = null;
        int pushedIn = -1; // the phase the node was pushed in; a node is popped when the phase moves on
        try {
            while (true) {
                int s = (int) STATE.getAcquire(this); // acquire: a terminal state seen makes value/failure visible
                if (s == READY) {
                    resolve();
                    continue;
                }
                if (s >= COMPLETED) return s;
                if (Thread.interrupted()) {
                    if (interruptible) {
                        unlink(me);
                        throw new InterruptedException();
                    }
                    keepInterrupt = true; // restored on the way out; parking needs the flag clear
                    continue;
                }
                if (s == PENDING) {
                    // One CAS claims the plan (one watcher at a time); the withdrawal precedes the first query.
                    if (inline instanceof Inline.Plan p && p.takenBy(Thread.currentThread())
                            && PLAN_TAKEN.compareAndSet(this, false, true)) { // volatile CAS: one thread runs the plan
                        unlink(me);
                        me = null;
                        if (!controls.skipsWithdraw()) lineWait.withdraw(); // negative control: the line that makes one watcher, removed
                        NaiveRunner.run(this, p, timed, start, nanos);
                        continue;
                    }
                }
                int phase = s == RESOLVING ? RESOLVING : PENDING; // SETTLING pops what PENDING pushed
                if (me == null || pushedIn != phase) {
                    // A fresh node per phase: the previous one was (or is being) popped by the move.
                    me = new Joiner(Thread.currentThread());
                    pushedIn = phase;
                    if (!pushThenRecheck(me, s)) continue;
                }
                if (timed) {
                    long left = nanos - (System.nanoTime() - start);
                    if (left <= 0) {
                        unlink(me);
                        throw new TimeoutException();
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

    /** Runs the readback once, on this thread: READY → RESOLVING → COMPLETED | FAILED. */
    private void resolve() {
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
        if (WaitEvent.enabled()) WaitEvent.commit(lineWait, t == null ? "COMPLETED" : "FAILED", code(t), seen, running != 0 ? running : System.nanoTime());
    }

    /** The JFR outcome name of terminal state {@code s}. */
    private static String outcome(int s) {
        return switch (s) {
            case COMPLETED -> "COMPLETED";
            case CANCELLED -> "CANCELLED";
            default -> "FAILED";
        };
    }

    /** The JFR code of a failure: the coded one's name, else empty. */
    private static String code(Throwable t) {
        return t instanceof ReactorException re ? re.code().name() : "";
    }

    // ---- Future ----

    /**
     * Ends the wait with {@link ErrorCode#Cancelled} if it is still pending, releasing every joiner
     * at once (one running the plan included); the device work is not stopped.
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
        // Lost the CAS: as FutureTask's, only the cancel that moved the future answers true (a second
        // cancel of a cancelled future says false); settle waited out a winner in SETTLING, so isDone()
        // is true once this returns false, as FutureTask's is.
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
     * {@link Future#state()}. A wait whose device finished is done, and its outcome is the
     * readback's: as the JDK's own {@code state()} does through {@code get()}, this runs a readback
     * nobody ran yet, or waits for the thread running it.
     */
    @Override
    public State state() {
        return stateOf(published());
    }

    /**
     * The coded terminal outcome's code, or {@code null} while running, after success, and when
     * the readback's own exception failed the wait (it carries no code).
     *
     * @return the failure's code
     */
    public ErrorCode failureCode() {
        int s = (int) STATE.getAcquire(this); // acquire: then `failure`, published by the store it saw
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

    /**
     * {@link Future#exceptionNow()}: the readback's own exception, or the coded failure; a
     * cancelled wait is not failed (as the contract says).
     */
    @Override
    public Throwable exceptionNow() {
        int s = published();
        if (s <= COMPLETED || s == CANCELLED) throw new IllegalStateException("not failed: " + stateOf(s));
        return failure;
    }

    /**
     * The state, with a finished device's readback published first: {@code READY} runs it here,
     * {@code RESOLVING} waits for the thread that runs it (uninterruptibly: an interrupt stays set).
     */
    private int published() {
        int s = (int) STATE.getAcquire(this); // acquire: the caller reads the outcome of a terminal state
        if (s != READY && s != RESOLVING) return s;
        if (s == RESOLVING && resolver == Thread.currentThread()) return s; // asked from inside its own readback
        try {
            return awaitDone(false, false, 0);
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("an uninterruptible untimed wait ended early", e);
        }
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
        return FutureStage.copyOf(stage());
    }

    /**
     * The internal stage, made on the first ask: completed only by this future, never handed to a
     * caller (each caller gets a copy), so no caller can change what another sees.
     */
    private CompletableFuture<T> stage() {
        CompletableFuture<T> s = stage; // volatile: a stage another thread made is complete-able as made
        if (s != null) return s;
        CompletableFuture<T> fresh = new CompletableFuture<>();
        if (!STAGE.compareAndSet(this, null, fresh)) return stage; // volatile CAS: one stage; the Dekker write against settle
        if (controls.skipsStageRecheck()) return fresh; // negative control: the re-check below, removed
        // The other half of settle's Dekker pair: a state read before the settle's volatile store
        // (PENDING, SETTLING, RESOLVING) means the settle's later read of `stage` sees `fresh` and completes it.
        int st = (int) STATE.getVolatile(this);
        if (st == READY) FutureStage.dispatch(callbacks, this::resolve);
        else if (st >= COMPLETED) completeStage(fresh);
        else if (st == PENDING) runInlineForStage();
        return fresh;
    }

    /**
     * The naive kind with nobody joining: no parker will ever settle this wait, so the runner runs
     * the plan (once: it claims the plan as a joiner would; a joiner that comes later parks until
     * the runner settles the future).
     */
    private void runInlineForStage() {
        // Volatile CAS: the runner and a joiner race for the plan; one runs it.
        if (inline instanceof Inline.Plan p && p.runsForStage() && PLAN_TAKEN.compareAndSet(this, false, true)) NaiveRunner.handOff(this, p);
    }

    /**
     * Runs {@code action} with the result or the failure once the wait ends, on {@code executor}
     * (never on the parker thread, which would stall every other waiter of its line). The failure is
     * what the stage holds: the readback's own exception, a coded {@link ReactorException}, or for a
     * cancelled wait a {@link CancellationException} whose cause is the coded {@link ErrorCode#Cancelled}.
     *
     * @param action called once with the value, or with the failure
     * @param executor where the action runs
     * @return this future
     */
    public GpuFuture<T> onComplete(BiConsumer<? super T, ? super Throwable> action, Executor executor) {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(executor, "executor");
        stage().whenCompleteAsync(action, executor); // the internal stage: no caller's copy can change what the action sees
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

    /** After a terminal state store: completes the stage, if one was asked for, never on a parker. */
    private void publishToStage() {
        CompletableFuture<T> s = stage; // volatile: the settle's Dekker read, after its volatile state store
        if (s == null) return;
        if (Thread.currentThread() instanceof ParkerThread) FutureStage.dispatch(callbacks, () -> completeStage(s));
        else completeStage(s);
    }

    private void completeStage(CompletableFuture<T> s) {
        int st = (int) STATE.getAcquire(this); // acquire: then value/failure
        FutureStage.complete(s, st, value, failure);
    }

    /** The raw state (tests, the parker's scan, the naive driver's abandonment check): acquire, as every outcome read. */
    int rawState() { return (int) STATE.getAcquire(this); }

    @Override
    public String toString() {
        return "GpuFuture[" + lineWait.descriptor() + ", " + stateOf((int) STATE.getAcquire(this)) + "]"; // never runs the readback
    }
}
