package dev.gpureactor.carrier;

import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The shared body of {@link CarrierLookStress} and its negative control: the carrier watch's look at a carrier
 * ({@link CarrierWatch#look}, the code the watch runs) whose block ends during the look. The carrier is modelled
 * by what the look reads of it ({@link CarrierWatch.Sighting}); its tally is a real {@link CarrierTally}.
 *
 * <p>Setup: a virtual thread reads a pipe on the carrier, a read the JDK compensates ({@code Blocker}): one task
 * begun, {@code compensating} set, asleep in the kernel, and the last look saw it so in the same task, using no CPU.
 * Actors: the carrier, woken by the pipe's writer, ends the JDK's compensation, finishes its task and waits in the
 * pool for the next; the watch looks at it, with a task queued. The fields the look reads are volatile here: in the
 * carrier, each step follows the one before causally (the kernel wakes the thread before it runs a line; the task's
 * end precedes the pool's park, a CAS on its ctl word), which the model's ordering stands for.
 */
final class CarrierLookCase implements CarrierWatch.Sighting {
    private final CarrierTally tally = new CarrierTally();
    private final boolean bracketed;
    private volatile boolean compensating = true;
    private volatile Thread.State state = Thread.State.RUNNABLE;
    private volatile OsThread.Scheduling scheduling = OsThread.Scheduling.SLEEPING;

    /** @param bracketed whether the look reads the excuses on both sides of the evidence: false only in the negative control */
    CarrierLookCase(boolean bracketed) {
        this.bracketed = bracketed;
        tally.starting();            // the reader's task
        tally.watchedStarted = 1;    // the last look saw it in that task
        tally.watchedCpuNanos = 0;   // and no CPU used since
    }

    /** Actor: the carrier. The writer's byte wakes it; it ends the JDK's block, finishes the task, waits for the next. */
    void carrier() {
        scheduling = OsThread.Scheduling.RUNNING;
        compensating = false;        // Blocker.end
        tally.ran(0);                // the task's end
        scheduling = OsThread.Scheduling.SLEEPING;
        state = Thread.State.WAITING; // parked in the pool, waiting for work
    }

    /** Actor: the watch's look, a task queued. r1 = 1 when it begins a compensation for this carrier. */
    void watch(I_Result r) {
        r.r1 = CarrierWatch.look(this, tally, CarrierWatch.TICK_NANOS, true, bracketed) == CarrierWatch.Action.BEGIN ? 1 : 0;
    }

    @Override public boolean jdkCompensating() { return compensating; }
    @Override public long started() { return tally.started(); }
    @Override public long finished() { return tally.tasks(); }
    @Override public Thread.State state() { return state; }
    @Override public long cpuNanos() { return 0; }
    @Override public OsThread.Scheduling scheduling() { return scheduling; }
}
