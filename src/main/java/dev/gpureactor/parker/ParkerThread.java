package dev.gpureactor.parker;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.WakeCapture;
import dev.gpureactor.core.Sleeper;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

/**
 * A platform thread that runs a {@link LineParker}'s loop, and during one turn of it captures the
 * virtual threads its scan wakes: it may keep the first to run itself (hosting: the locality-first
 * wake), and hands the others to the carriers together.
 *
 * <p>When a parker's scan completes a wait, the joiner's unpark calls {@link CarrierPool#execute}
 * on this thread. While the turn {@linkplain #openCapture captures}, the pool hands every such task
 * of its own to {@link #capture} instead of queueing it and waking a carrier. The first, when the
 * turn may host, is kept: the parker runs it right here, where the store was seen, saving the
 * handoff to a carrier asleep in the OS. The others are batched and go to the carriers as one push
 * ({@link CarrierPool#resumeAll}) when the capture closes, after the scan (a long scan's every
 * {@link #BATCH_MAX} as it goes on). Pushed one by one between the scan's settles, a fan-out's wakes
 * met carriers that had already drained the queue and gone idle, and each push paid for waking one
 * again (docs/SCALE.md, "The hand-off in batches").
 *
 * <p><b>Threads.</b> The capture fields are touched only by this thread ({@code execute} runs on
 * the unparking thread, which is this one). {@link #handed} is how a relieved thread standing by is
 * given its parker's loop again.
 */
public final class ParkerThread extends Thread implements WakeCapture {
    /** The JVM's thread CPU clock, probed once; null where it cannot measure this thread's CPU time. */
    private static final ThreadMXBean CPU = probeCpu();

    /**
     * Tasks captured before they are pushed to the carriers together; a scan that wakes more hands
     * them over in parts while it goes on. A part is about 0.1 ms of the scan's settles against one
     * submission: the carriers start within that of the scan and stay fed, where 4,096 left them idle
     * for the first 2 ms of a 10,000-waiter wake and between parts (docs/SCALE.md, "A long scan hands
     * over every 256").
     */
    static final int BATCH_MAX = 256;

    /** The pool whose tasks this turn captures; null when not capturing. This thread only. */
    private CarrierPool capturing;
    /** Whether this capture keeps its first task to host. This thread only. */
    private boolean keepsGuest;
    /** The kept task, or null. This thread only. */
    private Runnable guest;
    /** The captured tasks not yet pushed, {@link #batched} of them (the rest of the array is null). This thread only. */
    private Runnable[] batch = new Runnable[16];
    private int batched;
    /** This thread's deadline sleeper (an io_uring ring belongs to one thread), or null for parkNanos. */
    Sleeper deadlineSleeper;
    /** Set by the thread that hands this standing-by thread its parker's loop. */
    public volatile boolean handed;
    /**
     * Whether a relief handed this thread the loop: it emits the relief's JFR event as the new owner.
     * Written before the hand-over publishes the loop ({@link #handed}, or the thread's start); read and
     * cleared by this thread once it owns the loop.
     */
    boolean relief;
    /** A thread started to stand by for a hosting parker: it waits to be handed the loop before it runs it. */
    boolean startsStandingBy;

    /** This thread's CPU time at its last {@link #cpuSinceLastSample}. This thread only. */
    private long cpuSampled;

    public ParkerThread(LineParker parker, String name) {
        super(null, parker, name, 0, false);
        setDaemon(true);
        if (parker != null) parker.threads.add(this); // before its start: the reactor's close joins it (tests run none)
    }

    /**
     * From now until {@link #closeCapture}, the tasks {@code pool} is given on this thread are
     * captured: the first kept to host when {@code keepGuest}, the others batched.
     */
    void openCapture(CarrierPool pool, boolean keepGuest) {
        capturing = pool;
        keepsGuest = keepGuest;
    }

    /**
     * Captures {@code task} if this thread is capturing for {@code pool}: kept as the guest, or
     * batched (a full batch is pushed first). Throws only what a push throws (a retired pool, which
     * a live thread's wake never meets): the scan's own unpark would have thrown it.
     */
    @Override
    public boolean capture(CarrierPool pool, Runnable task) {
        if (pool != capturing) return false;
        if (keepsGuest && guest == null) {
            guest = task;
            return true;
        }
        if (batched == batch.length) {
            if (batched == BATCH_MAX) pushBatch(pool);
            else batch = Arrays.copyOf(batch, batched * 2); // grows to the largest scan seen, up to BATCH_MAX
        }
        batch[batched++] = task;
        return true;
    }

    /**
     * Pushes the batched tasks to {@code pool}'s carriers together ({@link CarrierPool#resumeAll}),
     * each admitted as a resume (never captured again). Throws only what the push throws.
     */
    private void pushBatch(CarrierPool pool) {
        Runnable[] tasks;
        try {
            tasks = Arrays.copyOf(batch, batched);
        } catch (OutOfMemoryError e) { // no memory for the lot's array: one by one, each surely
            for (int i = 0; i < batched; i++) {
                pool.resumeSurely(batch[i]);
                batch[i] = null;
            }
            batched = 0;
            return;
        }
        Arrays.fill(batch, 0, batched, null);
        batched = 0;
        pool.resumeAll(tasks);
    }

    /**
     * This thread's CPU time since the last call (0 where unmeasurable). Call on this thread only; a
     * clock_gettime of the thread's CPU clock, so the parker calls it when it is about to sleep anyway.
     */
    long cpuSinceLastSample() {
        if (CPU == null) return 0;
        long now = CPU.getCurrentThreadCpuTime();
        long d = now - cpuSampled;
        cpuSampled = now;
        return Math.max(0, d);
    }

    private static ThreadMXBean probeCpu() {
        try {
            ThreadMXBean b = ManagementFactory.getThreadMXBean();
            if (!b.isCurrentThreadCpuTimeSupported()) return null;
            if (!b.isThreadCpuTimeEnabled()) b.setThreadCpuTimeEnabled(true);
            return b;
        } catch (RuntimeException | LinkageError e) { // no java.management, or a security manager said no
            return null;
        }
    }

    /**
     * Ends the capture: pushes what is batched, and returns the kept task, or null. Should a push
     * throw, the kept task goes to the carriers too before the failure is thrown: a woken virtual
     * thread is never dropped.
     */
    Runnable closeCapture() {
        CarrierPool pool = capturing;
        capturing = null;
        Runnable g = guest;
        guest = null;
        if (batched > 0) {
            try {
                pushBatch(pool);
            } catch (RuntimeException e) {
                try {
                    if (g != null) pool.resumeSurely(g);
                } catch (RuntimeException alsoKept) {
                    e.addSuppressed(alsoKept); // the push's failure stays the one thrown
                }
                throw e;
            }
        }
        return g;
    }

    /**
     * Ends the capture after a turn that threw {@code failure}: what is batched is pushed and the kept
     * task goes to the carriers too (a woken virtual thread is never dropped). Whatever that throws is
     * added to {@code failure} as suppressed, so the turn's own failure is the one the loop handles.
     */
    void closeCaptureAfter(Throwable failure) {
        CarrierPool pool = capturing;
        try {
            Runnable kept = closeCapture();
            if (kept != null) pool.resumeSurely(kept); // as closeCapture's own failure path: a resume, never captured
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * The package's own classes a loop reaches only after it starts (a carrier's lent turn may reach them
     * first), for the reactor to initialise off the carriers with the rest of the await path.
     *
     * @return those classes
     */
    public static List<Class<?>> loopClasses() {
        return List.of(TurnLoan.class, ParkerDeath.class, ParkerEvents.class, EventSampler.class, SlotWaits.class, ObservedRun.class);
    }
}
