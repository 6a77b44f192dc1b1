package dev.gpureactor.backend.sim;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.LockSupport;

/**
 * A simulated GPU stream: one platform thread that runs queued operations in order, the way a
 * device runs a stream. It owns one slot of a line and stores sequence numbers 1, 2, 3 … into it.
 *
 * <ul>
 *   <li>{@link #compute}: "work" for a duration (sleeping or spinning), optionally running a kernel
 *       body first that writes the payload;
 *   <li>{@link #signal()}: store the next sequence number into the slot with release semantics,
 *       behind everything queued before it (the payload → word happens-before edge);
 *   <li>{@link #fail}: the stream fails; every later query reports it, as a poisoned CUDA context
 *       does. A kernel body that throws (an {@code Error} too) fails the stream the same way.
 * </ul>
 *
 * <p>Each {@link #signal()} returns a {@link Signal}: the descriptor to wait on and its
 * {@link CompletionPort}, whose query is the error authority, like {@code cuStreamQuery}: done
 * when the stream has <em>executed</em> the store operation, failed when the stream failed first.
 * Faults for soak tests: {@link #signalLost()} (done by the query, word never written),
 * {@link #signalThenFail} (the word arrives, then the stream fails: which one a waiter sees first
 * is a race) and {@link #signalIntoFailure} (the stream fails, and the word arrives only after a
 * query reported the failure: the wait fails, since the query is the authority). {@link #hold}
 * stalls the stream on a host-side gate, so a test can order a cancel, a timeout or an interrupt
 * strictly before the store.
 *
 * <p><b>Numbering.</b> A stream continues from its slot's current word: its first store is that
 * word plus one. A slot is owned by one stream at a time; a stream that replaces a failed one must
 * start only after the old stream's waits have settled, or its stores would reach their targets.
 */
public final class SimStream implements AutoCloseable {
    private final SimDevice device;
    private final CompletionLine line;
    private final Slot slot;
    private final LinkedBlockingQueue<Op> ops = new LinkedBlockingQueue<>();
    private final Thread worker;
    /**
     * Guards nothing but the {@code changed} condition, which every store, pass and failure signals.
     * A j.u.c. lock, not a monitor: a virtual thread blocked on it unmounts cleanly, where a
     * contended monitor enter can pin its carrier (JFR's {@code jdk.VirtualThreadPinned}).
     */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long queued;               // sequence numbers handed out (caller side, guarded by this)
    private volatile long executed;    // sequence numbers the stream has passed (stored or lost)
    private volatile ReactorException failure;
    private volatile boolean closed;
    /** Set once the worker has ended (closed, or its line closed): {@code executed} is final then. */
    private volatile ReactorException shutDown;
    /** Operations queued and not yet run (or skipped by a failed stream). */
    private final AtomicLong pending = new AtomicLong();

    /** How long {@link #signalIntoFailure} holds its store back waiting for a query to see the failure. */
    static final long LATE_STORE_BOUND_NANOS = 30_000_000_000L;

    /** One queued stream operation; it may wait (a gate), and then ends when the stream closes. */
    @FunctionalInterface
    private interface Op {
        void run() throws InterruptedException;
    }

    SimStream(SimDevice device, CompletionLine line, Slot slot) {
        this.device = device;
        this.line = line;
        this.slot = slot;
        this.queued = line.word(slot);
        this.executed = queued;
        this.worker = Thread.ofPlatform().daemon(true).name("gar-sim-" + line.name() + "-" + slot.index()).start(this::run);
    }

    /**
     * A handle to wait on one store: the descriptor and the port that is its error authority.
     *
     * @param descriptor the descriptor
     * @param port the port (the error authority)
     */
    public record Signal(MemoryDescriptor descriptor, CompletionPort port) {}

    /** {@return the line this stream stores into} */
    public CompletionLine line() { return line; }

    /** {@return the slot this stream stores into} */
    public Slot slot() { return slot; }

    /**
     * Queues {@code d} of device work (sleeping, or spinning when the device was built to spin); zero
     * is a step that takes no time.
     *
     * @param d the duration
     * @return this stream
     * @throws dev.gpureactor.core.ReactorException {@link dev.gpureactor.core.ErrorCode#InvalidArgument}
     *     when {@code d} is negative or longer than {@link Durations#MAX}
     */
    public SimStream compute(Duration d) {
        Objects.requireNonNull(d, "d");
        return queueWork(Durations.nonNegativeNanos("compute", d), null);
    }

    /**
     * Queues a kernel: {@code body} runs on the stream (writing its payload), then {@code d} of work (as {@link #compute(Duration)}).
     *
     * @param d the duration
     * @param body the body
     * @return this stream
     */
    public SimStream compute(Duration d, Runnable body) {
        Objects.requireNonNull(d, "d");
        long nanos = Durations.nonNegativeNanos("compute", d);
        Objects.requireNonNull(body, "body");
        return queueWork(nanos, body);
    }

    private SimStream queueWork(long nanos, Runnable body) {
        enqueue(() -> {
            if (body != null) body.run();
            work(nanos);
        });
        return this;
    }

    /**
     * Queues a wait on a host-side gate: the stream runs nothing after it until {@code gate} opens,
     * as a stream waiting on a host-written flag ({@code cuStreamWaitValue32}) would. Closing the
     * stream ends the wait.
     *
     * @param gate the gate
     * @return this stream
     */
    public SimStream hold(CountDownLatch gate) {
        Objects.requireNonNull(gate, "gate");
        enqueue(gate::await);
        return this;
    }

    /**
     * Queues the store of the next sequence number into this stream's slot, and returns what to wait on.
     *
     * @return the descriptor and port of the store
     */
    public synchronized Signal signal() {
        long seq = ++queued;
        enqueue(() -> {
            line.store(slot, seq);
            passed(seq);
        });
        return signalOf(seq);
    }

    /**
     * Fault: the stream passes the store (the query says done) but the word is never written.
     *
     * @return the descriptor and port of the lost store
     */
    public synchronized Signal signalLost() {
        long seq = ++queued;
        enqueue(() -> passed(seq));
        return signalOf(seq);
    }

    /**
     * Fault: the word is written, then the stream fails before the query can say done.
     *
     * @param why the cause
     * @return the descriptor and port of the store
     */
    public synchronized Signal signalThenFail(String why) {
        Objects.requireNonNull(why, "why");
        long seq = ++queued;
        enqueue(() -> {
            line.store(slot, seq);
            failNow(why);
        });
        return signalOf(seq);
    }

    /**
     * Fault: the stream fails first, and the store still arrives, but only once a query of this
     * signal's port has reported the failure (or after a 30 s bound, so the stream never hangs).
     * A waiter's outcome is therefore fixed: the query, the error authority, fails it before the
     * word could complete it, and the late word changes nothing.
     *
     * @param why the cause
     * @return the descriptor and port of the store
     */
    public synchronized Signal signalIntoFailure(String why) {
        Objects.requireNonNull(why, "why");
        long seq = ++queued;
        Port port = new Port(seq);
        enqueue(() -> {
            failNow(why);
            port.failureReported.await(LATE_STORE_BOUND_NANOS, TimeUnit.NANOSECONDS);
            line.store(slot, seq);
            notifyParked();
        });
        return new Signal(new MemoryDescriptor(line, slot, seq), port);
    }

    /**
     * Queues a failure: the stream fails when it reaches this operation.
     *
     * @param why the cause
     * @return this stream
     */
    public SimStream fail(String why) {
        Objects.requireNonNull(why, "why");
        enqueue(() -> failNow(why));
        return this;
    }

    private Signal signalOf(long seq) {
        return new Signal(new MemoryDescriptor(line, slot, seq), new Port(seq));
    }

    private String name() { return "sim stream " + line.name() + "/" + slot.index(); }

    private void enqueue(Op op) {
        if (closed) throw new ReactorException(ErrorCode.Rejected, name(), "work");
        pending.incrementAndGet();
        ops.add(op);
    }

    /** Works until {@code nanos} passed, or the stream closes: a close abandons the compute, as it drops queued work. */
    private void work(long nanos) {
        if (nanos <= 0) return;
        long end = System.nanoTime() + nanos;
        // Checks closed, not the interrupt: a body may have cleared the flag, and once set it makes parkNanos return at once.
        if (device.spins()) {
            while (!closed && System.nanoTime() - end < 0) Thread.onSpinWait();
        } else {
            long left;
            while (!closed && (left = end - System.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
                Thread.interrupted(); // another thread's interrupt, left set, would make every park return at once
            }
        }
    }

    private void passed(long seq) {
        executed = seq;
        notifyParked();
    }

    /** Wakes {@link Port#block} and {@link Port#park} waiters to look again (a store, a pass or a failure). */
    private void notifyParked() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void failNow(String why) {
        if (failure == null) {
            failure = new ReactorException(ErrorCode.Backend, "sim", "stream " + line.name() + "/" + slot.index(), 719,
                    "SIM_ERROR_LAUNCH_FAILED", why);
        }
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        try {
            while (!closed) {
                Op op;
                try {
                    op = ops.take();
                } catch (InterruptedException e) {
                    continue; // the close's (the loop reads closed), or another thread's, ignored as a device would
                }
                try {
                    if (failure == null) runThroughInterrupts(op); // a failed stream runs nothing more
                } catch (ReactorException e) {
                    if (e.code() == ErrorCode.LineClosed) return;
                    failNow(e.getMessage());
                } catch (RuntimeException e) {
                    failNow(e.toString());
                } catch (Error e) {
                    failNow(e.toString());
                    // A JVM error (out of memory, stack overflow, an internal error) goes on to the thread's
                    // uncaught handler, unswallowed: the stream has failed, so the worker has nothing left to run.
                    if (e instanceof VirtualMachineError) throw e;
                } finally {
                    pending.decrementAndGet();
                }
            }
        } finally {
            // Whatever ended the worker, a signal it did not execute can never complete: its port says so.
            shutDown = new ReactorException(ErrorCode.ShutDown, name());
            notifyParked();
        }
    }

    /**
     * Runs {@code op} to its end: an interrupt that is not the close's (a framework interrupting every
     * thread) must not end the stream, which would then fail every later signal {@code ShutDown} as if
     * closed. Only a gate or a late store's bounded wait is interruptible, and waiting
     * again is the same wait; a close ends it.
     */
    private void runThroughInterrupts(Op op) {
        while (!closed) {
            try {
                op.run();
                return;
            } catch (InterruptedException e) {
                // the close's (the loop reads closed), or another thread's: wait again
            }
        }
    }

    /**
     * Stops the stream thread: queued work is dropped and a compute in progress is abandoned. The port of
     * every signal the stream did not execute then reports {@link ErrorCode#ShutDown} (its blocked and
     * parked waiters wake); signals it executed still answer done.
     */
    @Override
    public void close() {
        closed = true;
        worker.interrupt();
        try {
            worker.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@return whether every queued operation has run (or the stream failed), gates included} */
    public boolean isIdle() { return pending.get() == 0 || failure != null; }

    /** {@return whether the stream has failed (every later query of its unexecuted signals throws)} */
    public boolean isFailed() { return failure != null; }

    private final class Port implements CompletionPort {
        private final long seq;
        /** Opened by the first query that reports the stream's failure for this signal. */
        final CountDownLatch failureReported = new CountDownLatch(1);

        Port(long seq) { this.seq = seq; }

        @Override
        public boolean query() {
            ReactorException ended = shutDown; // read first: once set, executed is final
            if (executed - seq >= 0) return true; // passed before any failure
            ReactorException f = failure;
            if (f != null) {
                failureReported.countDown();
                throw f;
            }
            if (ended != null) throw ended;
            return false;
        }

        @Override
        public void block() throws InterruptedException {
            lock.lockInterruptibly();
            try {
                while (!query()) changed.await();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void arm() {
            // The store was queued by signal(); nothing more to queue.
        }

        /**
         * Waits on the stream's condition, which every store signals (as a futex on the word would
         * be woken), so a parked waiter costs nothing until the store or the bound.
         */
        @Override
        public boolean park(long boundNanos) throws InterruptedException {
            long end = System.nanoTime() + boundNanos;
            MemoryDescriptor d = new MemoryDescriptor(line, slot, seq);
            lock.lockInterruptibly();
            try {
                while (!d.isComplete()) {
                    if (failure != null || shutDown != null) return false; // early: the query tells the outcome
                    long left = end - System.nanoTime();
                    if (left <= 0) return false;
                    changed.awaitNanos(left);
                }
            } finally {
                lock.unlock();
            }
            return true;
        }
    }
}
