package dev.gpureactor.parker;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The reactor's run statistics, counted where they happen; the reactor's {@code RunStats} reads them. */
public final class ReactorCounters {
    private final AtomicLong registrations = new AtomicLong();
    private final LongAdder woke = new LongAdder();
    private final LongAdder slept = new LongAdder();
    private final LongAdder parked = new LongAdder();
    private final LongAdder queried = new LongAdder();
    private final LongAdder parkersStarted = new LongAdder();
    private final LongAdder parkersDied = new LongAdder();
    private final LongAdder hosted = new LongAdder();
    private final LongAdder relieved = new LongAdder();
    private final LongAdder ranWaiting = new LongAdder();
    private final LongAdder carrierTurns = new LongAdder(), carrierWoke = new LongAdder();
    private final LongAdder parkerCpuNanos = new LongAdder();
    private final LongAdder turns = new LongAdder(), emptyTurns = new LongAdder(), turnNanos = new LongAdder(),
            spinNanos = new LongAdder(), hostNanos = new LongAdder();

    public void registered() { registrations.incrementAndGet(); }

    void deregistered() { registrations.decrementAndGet(); }

    /** {@code n} waits settled at once (a scan's): one update of the word the registrars increment. */
    void deregistered(int n) { registrations.addAndGet(-n); }

    public long registrations() { return registrations.get(); }

    void woke() { woke.increment(); }

    void woke(int n) { if (n != 0) woke.add(n); }

    void slept() { slept.increment(); }

    void parked() { parked.increment(); }

    void queried() { queried.increment(); }

    void parkerStarted() { parkersStarted.increment(); }

    void parkerDied() { parkersDied.increment(); }

    void hosted() { hosted.increment(); }

    void relieved() { relieved.increment(); }

    void ranWaiting(int tasks) { ranWaiting.add(tasks); }

    /** A turn a carrier ran on a parker's loop lent to it ({@code TurnLoan}), which completed {@code woke} waits. */
    void carrierTurn(int woke) {
        carrierTurns.increment();
        if (woke != 0) carrierWoke.add(woke);
    }

    void parkerCpu(long nanos) { parkerCpuNanos.add(nanos); }

    /** Books a parker's phases since its last booking (the reactor's {@code RunStats.ParkerPhases}). */
    void parkerPhases(long turns, long emptyTurns, long turnNanos, long spinNanos, long hostNanos) {
        this.turns.add(turns);
        this.emptyTurns.add(emptyTurns);
        this.turnNanos.add(turnNanos);
        this.spinNanos.add(spinNanos);
        this.hostNanos.add(hostNanos);
    }

    /**
     * Each counter, read once (the set is no snapshot of one moment); the reactor adds its pool's figures to
     * make its {@code RunStats}.
     *
     * @return the counts
     */
    public Counts counts() {
        return new Counts(woke.sum(), slept.sum(), parked.sum(), queried.sum(), registrations.get(), parkersStarted.sum(),
                parkersDied.sum(), hosted.sum(), relieved.sum(), ranWaiting.sum(), parkerCpuNanos.sum(), turns.sum(),
                emptyTurns.sum(), turnNanos.sum(), spinNanos.sum(), hostNanos.sum(), carrierTurns.sum(), carrierWoke.sum());
    }

    /**
     * The counters' values, as the reactor's {@code RunStats} names them.
     *
     * @param woke           waits the parkers' scans woke (each completed wait once)
     * @param slept          OS sleeps of the parkers: to a deadline, or idle until a registration
     * @param parked         line parks of the parkers
     * @param queried        backstop queries of a port
     * @param registrations  waits registered with a parker and not yet settled
     * @param parkersStarted parker threads whose loop started
     * @param parkersDied    times a parker's waits failed {@code ParkerDied}
     * @param hosted         woken virtual threads a parker ran itself
     * @param relieved       times a registration or close took a line's loop from a parker running a guest
     * @param ranWaiting     tasks waiting for a carrier that a relieved parker thread ran before it stood by
     * @param parkerCpuNanos CPU time the parker threads used
     * @param turns          turns of the parkers' loops
     * @param emptyTurns     turns that completed no wait
     * @param turnNanos      time in the turns
     * @param spinNanos      time spinning in a park
     * @param hostNanos      time running hosted virtual threads, booked with the parkers' CPU
     * @param carrierTurns   turns carriers ran on parkers' loops lent to them between tasks
     * @param carrierWoke    waits those turns completed
     */
    public record Counts(long woke, long slept, long parked, long queried, long registrations, long parkersStarted,
                         long parkersDied, long hosted, long relieved, long ranWaiting, long parkerCpuNanos, long turns,
                         long emptyTurns, long turnNanos, long spinNanos, long hostNanos, long carrierTurns,
                         long carrierWoke) {}
}
