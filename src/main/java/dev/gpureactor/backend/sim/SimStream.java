package dev.gpureactor.backend.sim;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
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
 *       does.
 * </ul>
 *
 * <p>Each {@link #signal()} returns a {@link Signal}: the descriptor to wait on and its
 * {@link CompletionPort}, whose query is the error authority, like {@code cuStreamQuery}: done
 * when the stream has <em>executed</em> the store operation, failed when the stream failed first.
 * Faults for soak tests: {@link #signalLost()} (done by the query, word never written) and
 * {@link #signalThenFail} (the word arrives, but the query says failed).
 */
public final class SimStream implements AutoCloseable {
    private final SimDevice device;
    private final CompletionLine line;
    private final Slot slot;
    private final LinkedBlockingQueue<Runnable> ops = new LinkedBlockingQueue<>();
    private final Thread worker;
    private final Object monitor = new Object();
    private long queued;               // sequence numbers handed out (caller side, guarded by this)
    private volatile long executed;    // sequence numbers the stream has passed (stored or lost)
    private volatile ReactorException failure;
    private volatile boolean closed;

    SimStream(SimDevice device, CompletionLine line, Slot slot) {
        this.device = device;
        this.line = line;
        this.slot = slot;
        this.worker = Thread.ofPlatform().daemon(true).name("gar-sim-" + line.name() + "-" + slot.index()).start(this::run);
    }

    /** A handle to wait on one store: the descriptor and the port that is its error authority. */
    public record Signal(MemoryDescriptor descriptor, CompletionPort port) {}

    public CompletionLine line() { return line; }

    public Slot slot() { return slot; }

    /** Queues {@code d} of device work (sleeping, or spinning when the device was built to spin). */
    public SimStream compute(Duration d) {
        return compute(d, null);
    }

    /** Queues a kernel: {@code body} runs on the stream (writing its payload), then {@code d} of work. */
    public SimStream compute(Duration d, Runnable body) {
        Objects.requireNonNull(d, "d");
        long nanos = d.toNanos();
        enqueue(() -> {
            if (body != null) body.run();
            work(nanos);
        });
        return this;
    }

    /** Queues the store of the next sequence number into this stream's slot, and returns what to wait on. */
    public synchronized Signal signal() {
        long seq = ++queued;
        enqueue(() -> {
            line.store(slot, seq);
            passed(seq);
        });
        return signalOf(seq);
    }

    /** Fault: the stream passes the store (the query says done) but the word is never written. */
    public synchronized Signal signalLost() {
        long seq = ++queued;
        enqueue(() -> passed(seq));
        return signalOf(seq);
    }

    /** Fault: the word is written, then the stream fails before the query can say done. */
    public synchronized Signal signalThenFail(String why) {
        long seq = ++queued;
        enqueue(() -> {
            line.store(slot, seq);
            failNow(why);
        });
        return signalOf(seq);
    }

    /** Queues a failure: the stream fails when it reaches this operation. */
    public SimStream fail(String why) {
        Objects.requireNonNull(why, "why");
        enqueue(() -> failNow(why));
        return this;
    }

    private Signal signalOf(long seq) {
        return new Signal(new MemoryDescriptor(line, slot, seq), new Port(seq));
    }

    private void enqueue(Runnable op) {
        if (closed) throw new ReactorException(ErrorCode.ShutDown, "sim stream " + line.name() + "/" + slot.index());
        ops.add(op);
    }

    private void work(long nanos) {
        if (nanos <= 0) return;
        long end = System.nanoTime() + nanos;
        if (device.spins()) {
            while (System.nanoTime() - end < 0) Thread.onSpinWait();
        } else {
            long left;
            while ((left = end - System.nanoTime()) > 0) LockSupport.parkNanos(left);
        }
    }

    private void passed(long seq) {
        executed = seq;
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    private void failNow(String why) {
        if (failure == null) {
            failure = new ReactorException(ErrorCode.Backend, "sim", "stream " + line.name() + "/" + slot.index(), 719,
                    "SIM_ERROR_LAUNCH_FAILED", why);
        }
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    private void run() {
        try {
            while (!closed) {
                Runnable op = ops.take();
                if (failure != null) continue; // a failed stream runs nothing more
                try {
                    op.run();
                } catch (ReactorException e) {
                    if (e.code() == ErrorCode.LineClosed) return;
                    failNow(e.getMessage());
                } catch (RuntimeException e) {
                    failNow(e.toString());
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** Stops the stream thread; queued work is dropped. */
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

    /** Whether every queued operation has run (or the stream failed). */
    public boolean isIdle() { return ops.isEmpty() && (executed == queued || failure != null); }

    private final class Port implements CompletionPort {
        private final long seq;

        Port(long seq) { this.seq = seq; }

        @Override
        public boolean query() {
            if (executed - seq >= 0) return true; // passed before any failure
            ReactorException f = failure;
            if (f != null) throw f;
            return false;
        }

        @Override
        public void block() throws InterruptedException {
            synchronized (monitor) {
                while (!query()) monitor.wait();
            }
        }

        @Override
        public void arm() {
            // The store was queued by signal(); nothing more to queue.
        }

        @Override
        public boolean park(long boundNanos) throws InterruptedException {
            long end = System.nanoTime() + boundNanos;
            MemoryDescriptor d = new MemoryDescriptor(line, slot, seq);
            while (!d.isComplete()) {
                long left = end - System.nanoTime();
                if (left <= 0) return false;
                if (left > 20_000) LockSupport.parkNanos(Math.min(left, 20_000)); else Thread.onSpinWait();
                if (Thread.interrupted()) throw new InterruptedException();
            }
            return true;
        }
    }
}
