package dev.gpureactor.carrier;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * A carrier pool's callbacks' executor ({@link CarrierPool#callbacks()}): each callback on a virtual
 * thread of its own, counted live by the pool while it runs or parks.
 *
 * <p>Never on a carrier thread itself. A carrier that ran a callback directly would be a platform
 * thread contending for the callback's monitors with the pool's virtual threads; under JEP 491 a
 * virtual thread blocked on a monitor unmounts, and when the owner leaves it may be the one chosen to
 * enter next, while the carrier stays parked on the monitor: the chosen thread waits for a carrier, the
 * carrier for it, and with one carrier the pool stops for good (a stage completion formatting its first
 * coded message against a joiner loading the same locale bundle does it: CallbackMonitorTest). The
 * JDK's own scheduler runs nothing but virtual threads on its carriers for the same reason.
 */
final class PoolCallbacks implements Executor {
    private final CarrierPool pool;
    /**
     * The scheduler of the callbacks' virtual threads (and of the threads they build, which take it): each
     * start and resume is one admission as a resume (after close too, until the carriers retire), never
     * captured by a parker; a start the factory does not claim is adopted ({@link AdoptedThreads}).
     */
    final Executor scheduler;

    /** The callbacks' virtual threads, made on the first callback (racing first callers may make two: harmless). */
    private volatile ThreadFactory threads;

    PoolCallbacks(CarrierPool pool) {
        this.pool = pool;
        this.scheduler = task -> { // a start told as execute tells it, so a callback's own children are adopted
            Thread t = VirtualThreads.threadOf(task);
            if (t != null && VirtualThreads.isStarting(t)) pool.admitStart(task, t); else pool.admitResume(task);
        };
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        ThreadFactory f = threads; // volatile: a factory made by another caller is whole
        if (f == null) threads = f = VirtualThreads.builder(scheduler).name("gar-callback").factory();
        // live while it runs or parks: the carriers stay for its resumes
        f.newThread(pool.liveBody(task)).start(); // the start is admitted by the scheduler, or refused once retired
    }
}
