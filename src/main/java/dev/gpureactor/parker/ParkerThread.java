package dev.gpureactor.parker;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.WakeCapture;
import dev.gpureactor.core.Sleeper;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A platform thread that runs a {@link LineParker}'s loop, and during one turn of it may keep one
 * woken virtual thread to run itself (hosting: the locality-first wake).
 *
 * <p>When a parker's scan completes a wait, the joiner's unpark calls {@link CarrierPool#execute}
 * on this thread. While the turn {@linkplain #openCapture captures}, the pool hands the first such
 * task of its own to {@link #capture} instead of queueing it and waking a carrier; the parker then
 * runs it right here, where the store was seen, saving the handoff to a carrier asleep in the OS.
 *
 * <p><b>Threads.</b> The capture fields are touched only by this thread ({@code execute} runs on
 * the unparking thread, which is this one). {@link #handed} is how a relieved thread standing by is
 * given its parker's loop again.
 */
public final class ParkerThread extends Thread implements WakeCapture {
    /** The JVM's thread CPU clock, probed once; null where it cannot measure this thread's CPU time. */
    private static final ThreadMXBean CPU = probeCpu();

    /** The pool whose tasks this turn may keep; null when not capturing. This thread only. */
    private CarrierPool capturing;
    private Runnable guest;
    /** This thread's deadline sleeper (an io_uring ring belongs to one thread), or null for parkNanos. */
    Sleeper deadlineSleeper;
    /** Set by the thread that hands this standing-by thread its parker's loop. */
    public volatile boolean handed;
    /** A thread started to stand by for a hosting parker: it waits to be handed the loop before it runs it. */
    boolean startsStandingBy;

    /** This thread's CPU time at its last {@link #cpuSinceLastSample}. This thread only. */
    private long cpuSampled;

    public ParkerThread(LineParker parker, String name) {
        super(null, parker, name, 0, false);
        setDaemon(true);
    }

    /** From now until {@link #closeCapture}, the first task {@code pool} is given on this thread is kept. */
    void openCapture(CarrierPool pool) {
        capturing = pool;
    }

    /** Keeps {@code task} if this thread is capturing for {@code pool} and has no guest yet. */
    @Override
    public boolean capture(CarrierPool pool, Runnable task) {
        if (pool != capturing || guest != null) return false;
        guest = task;
        return true;
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

    /** Ends the capture; returns the kept task, or null. */
    Runnable closeCapture() {
        capturing = null;
        Runnable g = guest;
        guest = null;
        return g;
    }
}
