package dev.gpureactor.loom;

import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.Oversleep;
import dev.gpureactor.parker.Turn;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The parker's oversleep allowance, and the rule it serves: a late wake the OS caused does not
 * halve the prediction; one on time does (the estimator's censoring). Driven synchronously with a
 * manual clock: {@code afterTimedSleep} stands for the sleep, {@code step(true)} for the turn after it.
 */
class OversleepTest {
    @Test
    void the_allowance_rises_at_once_decays_by_an_eighth_ignores_early_wakes_and_is_capped() {
        Oversleep o = new Oversleep();
        assertEquals(0, o.allowanceNanos());
        o.sample(1_000, 81_000);
        assertEquals(80_000, o.allowanceNanos());
        o.sample(1_000, 1_000); // on time: decays
        assertEquals(70_000, o.allowanceNanos());
        o.sample(1_000, 500); // cut short by a registration: teaches nothing
        assertEquals(70_000, o.allowanceNanos());
        o.sample(0, 90_000);
        assertEquals(90_000, o.allowanceNanos());
        o.sample(0, 10_000_000);
        assertEquals(Oversleep.CAP_NANOS, o.allowanceNanos());
    }

    private static final WaitPlan.FlagWait PLAN = (WaitPlan.FlagWait) WaitPlan.parse(
            "flag:park_us=100,backstop_us=1000000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8");

    @Test
    void a_wake_the_os_made_late_is_not_observed() {
        assertEquals(0, lateAfterSleep(1_000_000).sampleCount(), "an abnormal oversleep fed the estimator");
    }

    @Test
    void a_late_wake_on_time_is_censored_as_the_crate_says() {
        var e = lateAfterSleep(0);
        assertEquals(1, e.sampleCount());
        assertEquals(5_000_000 / 2, e.predictedNanos().getAsLong(), "min(woke, predicted) / 2 with no prediction yet");
    }

    /** One wait that the turn after a sleep finds done at 5 ms, the sleep having overslept by {@code over}. */
    private static dev.gpureactor.core.PointEstimate lateAfterSleep(long over) {
        CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "t", () -> { });
        ManualClock clock = new ManualClock();
        PointTable<Object> points = new PointTable<>();
        LineParker p = new LineParker(line, (watches, bound, spin) -> 0L, PLAN, points, clock, w -> { },
                new ReactorCounters(), 0, null, null, false);
        GpuFuture<Void> f = new GpuFuture<>(1, new MemoryDescriptor(line, Slot.of(0), 1), Ports.NEVER_DONE, null,
                Runnable::run, 0, 0, 0, "k");
        p.inbox.register(f.lineWait);
        assertInstanceOf(Turn.Park.class, p.step(false));
        clock.advance(5_000_000 - over);
        long asked = clock.nanos();
        clock.advance(over);
        p.afterTimedSleep(asked, clock.nanos());
        line.store(Slot.of(0), 1);
        p.step(true);
        assertEquals(GpuFuture.COMPLETED, f.rawState());
        return points.estimate("k");
    }

    /** Test-side stand-ins. */
    static final class Ports {
        static final dev.gpureactor.core.CompletionPort NEVER_DONE = new dev.gpureactor.core.CompletionPort() {
            @Override public boolean query() { return false; }
            @Override public void block() { throw new UnsupportedOperationException(); }
            @Override public void arm() { }
            @Override public boolean park(long boundNanos) { return false; }
        };
    }
}
