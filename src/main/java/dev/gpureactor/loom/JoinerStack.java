package dev.gpureactor.loom;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import static dev.gpureactor.loom.GpuFuture.COMPLETED;
import static dev.gpureactor.loom.GpuFuture.PENDING;
import static dev.gpureactor.loom.GpuFuture.READY;
import static dev.gpureactor.loom.GpuFuture.RESOLVING;

/**
 * The threads waiting on one {@link GpuFuture}, and how each waits ({@link #awaitDone}): the first
 * joiner of a phase in a slot of its own ({@link #sole}), any other on a Treiber stack, as {@code
 * FutureTask}'s, pushed by CAS; both emptied after each move of the future's state. A superclass rather
 * than a field, so a future costs no second object. The Dekker pair it is one half of: docs/DESIGN.md §5
 * "joiner stack".
 *
 * <p>Why the slot: a future is nearly always joined by one thread, and a waker that finds that thread in
 * the future itself unparks it without reading a node. In a mass wake each node was a cache miss, and a
 * volatile store behind it, on the parker's path for every woken thread (docs/SCALE.md, "The sole
 * joiner").
 */
abstract class JoinerStack {
    /** A limit this long (146 years) is no limit: {@code start + limit} would overflow. */
    private static final long FOREVER_NANOS = 1L << 62;

    private static final VarHandle JOINERS, SOLE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            JOINERS = l.findVarHandle(JoinerStack.class, "joiners", Joiner.class);
            SOLE = l.findVarHandle(JoinerStack.class, "sole", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A registration in {@link #sole}, not a node: what {@link #register} returns for it, never pushed. */
    static final Joiner IN_SOLE = new Joiner(null);

    /** The top of the stack; volatile, the joiners' half of the Dekker pair on the state (DESIGN §5). */
    private volatile Joiner joiners;
    /**
     * The joiner that registered first in this phase, or null: set only by that thread's CAS from null,
     * emptied by a waker's getAndSet or that thread's own CAS back to null. Volatile, as {@link #joiners}:
     * the same half of the same Dekker pair.
     */
    private volatile Thread sole;

    /** A waiting thread; {@code thread} is cleared by the waker or by the joiner leaving early (then unlinked). */
    static final class Joiner {
        volatile Thread thread;
        volatile Joiner next;

        Joiner(Thread thread) { this.thread = thread; }
    }

    /**
     * Registers {@code me}, the calling thread (a jcstress rig's placeholder aside): in {@link #sole} when it is
     * free ({@link #IN_SOLE}), else as a node pushed on the stack. The caller then re-checks the state with a
     * volatile load (Dekker with the settle).
     */
    final Joiner register(Thread me) {
        if (SOLE.compareAndSet(this, null, me)) return IN_SOLE; // volatile CAS: the joiner's write of the Dekker pair
        Joiner node = new Joiner(me);
        push(node);
        return node;
    }

    /** The sole slot's joiner, or null (the jcstress rig's view). */
    final Thread soleJoiner() { return sole; }

    /** Pushes {@code me} ({@link #register}'s second way). */
    private void push(Joiner me) {
        Joiner head;
        do {
            head = joiners; // volatile: the CAS below checks it anyway
            me.next = head;
        } while (!JOINERS.compareAndSet(this, head, me)); // volatile CAS: the joiner's write of the Dekker pair
    }

    /** Empties the slot and pops the whole stack (after the state store), and unparks every thread still on them. */
    final void wakeJoiners() {
        // Volatile reads, after the state store: a registration made before the store is seen (Dekker); one
        // made after it re-reads the state and does not park. Read first so an empty half costs no locked op.
        if (sole != null) {
            Thread t = (Thread) SOLE.getAndSet(this, null); // volatile: one of this and the joiner's leaving takes it out
            if (t != null) LockSupport.unpark(t);
        }
        if (joiners == null) return;
        Joiner j = (Joiner) JOINERS.getAndSet(this, null); // volatile: a node pushed before it is popped here
        for (; j != null; j = j.next) {
            Thread t = j.thread; // volatile: a joiner that left early cleared it
            if (t != null) {
                j.thread = null; // volatile: tells the joiner (and a jcstress arbiter) it was woken
                LockSupport.unpark(t);
            }
        }
    }

    /**
     * A joiner leaving early takes its node off the stack, so repeated timed waits on a long wait
     * do not grow it ({@code FutureTask.removeWaiter}: clear the thread, then unlink every cleared
     * node, restarting when a race with another unlinker is seen).
     */
    final void unlink(Joiner me) {
        if (me == null) return;
        if (me == IN_SOLE) {
            Thread t = Thread.currentThread();
            if (sole == t) SOLE.compareAndSet(this, t, null); // volatile; read first: a woken joiner finds it taken out
            return;
        }
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

    /** The future's state, read with acquire (a terminal state seen makes its outcome visible). */
    abstract int rawState();

    /** Runs the readback on this thread if nobody runs it yet (READY → RESOLVING → terminal). */
    abstract void resolve();

    /** Whether the calling thread runs this future's readback now (a readback that joins its own future). */
    abstract boolean resolvingHere();

    /** After {@link #register}: re-reads the state (volatile), {@code true} when it is still {@code seen}, so the caller may park. */
    abstract boolean recheck(int seen);

    /** Whether this joiner took the wait's plan over and ran it (having unlinked {@code me}); false when it is not its to run. */
    abstract boolean ranPlan(Joiner me, boolean timed, long start, long nanos) throws InterruptedException, TimeoutException;

    /**
     * Waits until the future is terminal and returns its state. {@code interruptible}: an interrupt
     * ends this caller's wait ({@link InterruptedException}, flag cleared); otherwise it is kept for
     * the caller. {@code timed}: past {@code nanos} this caller's wait ends ({@link TimeoutException}).
     * Neither changes the future, and neither applies once the device finished ({@code isDone()}):
     * the caller then runs the readback, or waits for the thread that runs it.
     */
    final int awaitDone(boolean interruptible, boolean timed, long nanos) throws InterruptedException, TimeoutException {
        final long start = timed ? System.nanoTime() : 0;
        if (timed && nanos >= FOREVER_NANOS) timed = false;
        if (timed && nanos < 0) nanos = 0; // a past limit is no wait; Long.MIN_VALUE - elapsed would wrap to "for ever"
        boolean keepInterrupt = false;
        Joiner me = null;
        int pushedIn = -1; // the phase the node was pushed in; a node is popped when the phase moves on
        try {
            while (true) {
                int s = rawState(); // acquire: a terminal state seen makes value/failure visible
                if (s == READY) {
                    resolve();
                    continue;
                }
                if (s >= COMPLETED) {
                    // A registration made after the last move (its re-check saw the move) would keep this thread
                    // in the finished future's slot; a node there holds it too, as before, and is left.
                    if (me == IN_SOLE) unlink(me);
                    return s;
                }
                if (s == RESOLVING && resolvingHere()) {
                    // The readback waits for its own future: it would wait for itself for ever (or for its limit).
                    unlink(me);
                    throw new ReactorException(ErrorCode.InvalidArgument, "a wait", "called from this future's own readback",
                            "a readback that does not wait for its own future, which it is completing");
                }
                if (s == RESOLVING) {
                    // isDone() reads true: as FutureTask's get once done, the outcome is this caller's whatever its
                    // limit or interrupt (the readback is running; the interrupt stays set for the caller).
                    timed = false;
                    interruptible = false;
                }
                if (Thread.interrupted()) {
                    if (interruptible) {
                        unlink(me);
                        throw new InterruptedException();
                    }
                    keepInterrupt = true; // restored on the way out; parking needs the flag clear
                    continue;
                }
                if (s == PENDING && ranPlan(me, timed, start, nanos)) {
                    me = null; // ranPlan unlinked it
                    continue;
                }
                int phase = s == RESOLVING ? RESOLVING : PENDING; // SETTLING pops what PENDING pushed
                if (me == null || pushedIn != phase) {
                    // A fresh registration per phase: the previous one was (or is being) taken out by the move.
                    me = register(Thread.currentThread());
                    pushedIn = phase;
                    if (!recheck(s)) continue;
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
}
