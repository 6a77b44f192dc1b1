package dev.gpureactor.loom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;

/**
 * Who closes a reactor, and when a close may return.
 *
 * <p>The first {@link GpuReactor#close()} does the work: it shuts the executors down, ends every
 * wait and closes the carrier pool. A close that comes meanwhile from another thread returns only
 * once the first has: an idempotent close that returned at once would let its caller find waits
 * still pending and executors still open on a reactor it just closed. A close from the closing
 * thread itself (a warning sink or a callback that closes again) returns at once: it cannot wait
 * for itself; nor can a close from one of the reactor's own virtual threads, for which the first
 * close's pool waits (the two would hold each other until the pool's grace, which would then warn
 * LiveAtClose naming the closer). A close after the first returned returns at once. The wait is bounded by
 * the first close's, which waits for nothing unbounded (each parker's leaving and the pool's
 * grace are bounded).
 *
 * <p>Memory ordering: {@code closed} is written once, by a volatile CAS, so exactly one thread
 * closes, and the write is sequentially consistent with the registrars' and executors' volatile
 * reads of it (their handshakes with {@code close}, docs/DESIGN.md §5). {@code closer} is written
 * by the winner after the CAS; a loser compares it with itself only, so a stale {@code null} just
 * makes it wait, which is right (it is not the closer). The latch's count-down happens-before the
 * return of every await, so a waiting closer sees everything the first close did.
 */
final class ReactorClose {
    private static final VarHandle CLOSED;

    static {
        try {
            CLOSED = MethodHandles.lookup().findVarHandle(ReactorClose.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Set once, by the winning CAS (volatile): every reader sees a close that began. */
    private volatile boolean closed;
    /** The thread whose close does the work; written once, after the CAS. */
    private volatile Thread closer;
    /** Opened when the first close has done its work. */
    private final CountDownLatch done = new CountDownLatch(1);
    /** Whether a later close waits for the first: false only in jcstress's negative control. */
    private final boolean waitsForFirst;

    ReactorClose() { this(true); }

    /** A negative control's close: {@code waitsForFirst = false} removes the wait for the first close. */
    ReactorClose(boolean waitsForFirst) { this.waitsForFirst = waitsForFirst; }

    /** {@return whether a close began} Volatile read. */
    boolean isClosed() { return closed; }

    /**
     * {@return true when this thread closes (it then calls {@link #done()}); false when a close began
     * before, and then, unless this is the closing thread or {@code onOwnThread}, the first close has done its work}
     *
     * @param onOwnThread whether the caller runs on the reactor's carriers (one of its virtual threads, or a carrier)
     */
    boolean begin(boolean onOwnThread) {
        if (CLOSED.compareAndSet(this, false, true)) { // volatile CAS: one closer
            closer = Thread.currentThread();
            return true;
        }
        // One of the reactor's own threads returns at once: the first close waits (up to its grace) for
        // that thread to end, so waiting for the first close would hold both until the grace.
        if (waitsForFirst && !onOwnThread && closer != Thread.currentThread()) awaitDone();
        return false;
    }

    /** The first close has done its work: every later or waiting close returns. */
    void done() { done.countDown(); }

    private void awaitDone() {
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // close() cannot throw it: wait on, and keep the flag, as ExecutorService.close does
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
