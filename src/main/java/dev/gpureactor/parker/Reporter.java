package dev.gpureactor.parker;

import dev.gpureactor.carrier.OwnThreads;
import dev.gpureactor.carrier.WakeCapture;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Delivers what the reactor's own threads report (a warning for the user's sink, a parker's JFR event) on a
 * thread of its own, so that no parker, standby or carrier ever waits in user code or in a log: a logger
 * whose appender blocks held a parker's loop, and every wait of its lines, for as long as it blocked. What a
 * user's thread reports is not posted here: the caller delivers it in place, as the JDK's own code logs.
 *
 * <p>Implementation overview. Reports wait in a lock-free queue, at most {@link #MAX_PENDING} of them (a
 * report past that is dropped, and its poster told: a sink that blocks for good must not grow the heap), and one
 * platform thread delivers them in order. It is started by the post that finds none running and leaves
 * after {@link #LINGER} without reports, at once once closed. The hand-over at its leaving is Dekker's: a
 * post offers its report, then reads {@link #running}; the leaving thread writes {@code running = false},
 * then looks at the queue. All four accesses are volatile, so at least one side sees the other's write:
 * the post starts a thread, or the leaving thread takes the report up again (a CAS from false, which only
 * one can win). No report is left in the queue with no thread to deliver it ({@code ReporterLeaveStress};
 * its control, a thread that leaves without looking again, shows one).
 */
public final class Reporter implements AutoCloseable {
    /** Reports held while the delivering thread is busy; past this a report is dropped (its post returns false). */
    public static final int MAX_PENDING = 1024;
    /** How long the delivering thread stays without reports before it leaves. */
    static final Duration LINGER = Duration.ofSeconds(1);

    private final String threadName;
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    /** Whether a delivering thread runs: set by the CAS that starts one (or takes the work up again), cleared by it as it leaves. */
    private final AtomicBoolean running = new AtomicBoolean();
    /**
     * Reports posted, and reports delivered or dropped: the difference is what waits (the bound's count), and a
     * flush waits for the second to reach the first. Atomic adds.
     */
    private final AtomicLong posted = new AtomicLong(), settled = new AtomicLong();
    /** The delivering thread, or null; written before it starts (the start orders it), read to unpark it. */
    private volatile Thread thread;
    /** The delivering threads started, for the reactor's close to join. */
    private final OwnThreads threads = new OwnThreads();
    /** Set once by {@link #close}: the thread leaves as soon as the queue is empty. */
    private volatile boolean closed;
    /** Whether the leaving thread looks at the queue again: false only in jcstress's negative control. */
    private final boolean looksAgain;

    /** A reporter whose thread is named {@code threadName}. */
    public Reporter(String threadName) { this(threadName, true); }

    Reporter(String threadName, boolean looksAgain) {
        this.threadName = threadName;
        this.looksAgain = looksAgain;
    }

    /**
     * {@return whether the calling thread is one the reactor runs its own loops on}: a parker or a thread standing
     * by for one, or a carrier between two tasks (each a {@link WakeCapture}). A virtual thread, even one
     * mounted on a carrier, is the user's.
     */
    public static boolean onOwnThread() { return Thread.currentThread() instanceof WakeCapture; }

    /**
     * Queues {@code report} for the delivering thread, starting one if none runs. Never blocks, never throws.
     *
     * @return false when {@link #MAX_PENDING} reports already wait: this one is dropped (the caller counts it)
     */
    public boolean post(Runnable report) {
        if (!offer(report)) return false;
        if (claim()) start();
        else LockSupport.unpark(thread); // a lingering thread takes it now
        return true;
    }

    /** Queues {@code report} unless {@link #MAX_PENDING} wait (then drops and counts it). */
    boolean offer(Runnable report) {
        if (posted.incrementAndGet() - settled.get() > MAX_PENDING) { // posts racing here may pass the bound by their number
            settled.incrementAndGet();
            return false;
        }
        queue.offer(report); // volatile write: published before claim's read of running
        return true;
    }

    /** After an offer: whether the caller starts a delivering thread (none runs, and its CAS won). */
    boolean claim() { return !running.get() && running.compareAndSet(false, true); } // volatile read, then the one CAS

    /**
     * The delivering thread, its queue found empty: whether it leaves. False: a report came that no post will start a
     * thread for (its post read {@code running} true), and this thread took the work up again.
     */
    boolean leave() {
        running.set(false); // volatile write, then the queue's volatile read: Dekker with offer-then-claim
        return !looksAgain || queue.isEmpty() || !running.compareAndSet(false, true);
    }

    /** Starts a delivering thread; if the OS refuses one, the reports wait for the next post's try. */
    private void start() {
        try {
            Thread t = threads.add(Thread.ofPlatform().name(threadName).daemon(true).inheritInheritableThreadLocals(false).unstarted(this::deliver));
            thread = t;
            t.start();
        } catch (Throwable e) { // out of memory or of threads: the next post tries again
            running.set(false);
        }
    }

    /** The delivering thread: runs reports in order until none came for {@link #LINGER}, or until closed and none is left. */
    private void deliver() {
        long idleSince = System.nanoTime();
        while (true) {
            Runnable r = queue.poll();
            if (r != null) {
                run(r);
                idleSince = System.nanoTime();
                continue;
            }
            if (!closed && System.nanoTime() - idleSince < LINGER.toNanos()) {
                LockSupport.parkNanos(this, LINGER.toNanos());
                continue;
            }
            if (leave()) return;
        }
    }

    private void run(Runnable r) {
        try {
            r.run();
        } catch (Throwable e) {
            // A report's own guard counts what it throws (the warnings sink's); an event not committed is all it costs.
        } finally {
            settled.incrementAndGet();
        }
    }

    /**
     * Waits until every report posted before this call was delivered (or dropped), at most {@code grace}.
     *
     * @return whether they all were
     */
    public boolean flush(Duration grace) {
        if (Thread.currentThread() == thread) return false; // a sink that closes the reactor: it cannot wait for itself
        long target = posted.get(), deadline = System.nanoTime() + grace.toNanos();
        while (settled.get() < target) {
            if (System.nanoTime() - deadline >= 0) return false;
            LockSupport.parkNanos(100_000);
        }
        return true;
    }

    /** After {@link #close}: waits until the delivering thread has left (not the caller's own), until {@code deadlineNanos}. */
    public boolean awaitLeft(long deadlineNanos) { return threads.awaitEnded(deadlineNanos); }

    /** Whether a delivering thread runs (tests). */
    boolean running() { return running.get(); }

    /** The delivering thread leaves as soon as nothing waits; posts after this still start one, which leaves at once. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
