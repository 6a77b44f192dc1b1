package dev.gpureactor.loom;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The reactor's run statistics, counted where they happen; {@link RunStats} is their snapshot. */
final class ReactorCounters {
    private final AtomicLong registrations = new AtomicLong();
    private final LongAdder woke = new LongAdder();
    private final LongAdder slept = new LongAdder();
    private final LongAdder parked = new LongAdder();
    private final LongAdder queried = new LongAdder();
    private final LongAdder parkersStarted = new LongAdder();
    private final LongAdder parkersDied = new LongAdder();
    private final LongAdder hosted = new LongAdder();
    private final LongAdder relieved = new LongAdder();
    private final LongAdder parkerCpuNanos = new LongAdder();
    private final LongAdder turns = new LongAdder(), emptyTurns = new LongAdder(), turnNanos = new LongAdder(),
            spinNanos = new LongAdder(), hostNanos = new LongAdder();

    void registered() { registrations.incrementAndGet(); }

    void deregistered() { registrations.decrementAndGet(); }

    long registrations() { return registrations.get(); }

    void woke() { woke.increment(); }

    void slept() { slept.increment(); }

    void parked() { parked.increment(); }

    void queried() { queried.increment(); }

    void parkerStarted() { parkersStarted.increment(); }

    void parkerDied() { parkersDied.increment(); }

    void hosted() { hosted.increment(); }

    void relieved() { relieved.increment(); }

    void parkerCpu(long nanos) { parkerCpuNanos.add(nanos); }

    /** Books a parker's phases since its last booking (see {@link RunStats.ParkerPhases}). */
    void parkerPhases(long turns, long emptyTurns, long turnNanos, long spinNanos, long hostNanos) {
        this.turns.add(turns);
        this.emptyTurns.add(emptyTurns);
        this.turnNanos.add(turnNanos);
        this.spinNanos.add(spinNanos);
        this.hostNanos.add(hostNanos);
    }

    RunStats snapshot(CarrierPool pool) {
        return new RunStats(pool == null ? 0 : pool.tasksRun(), woke.sum(), slept.sum(), parked.sum(), queried.sum(),
                pool == null ? 0 : pool.idleNanos(), pool == null ? 0 : pool.busyNanos(), registrations.get(),
                parkersStarted.sum(), parkersDied.sum(), hosted.sum(), relieved.sum(),
                pool == null ? 0 : pool.queueDepth(), pool == null ? 0 : pool.liveThreads(), pool == null ? 0 : pool.size(),
                parkerCpuNanos.sum(), pool == null ? 0 : pool.compensations(),
                new RunStats.ParkerPhases(turns.sum(), emptyTurns.sum(), turnNanos.sum(), spinNanos.sum(), hostNanos.sum()));
    }
}
