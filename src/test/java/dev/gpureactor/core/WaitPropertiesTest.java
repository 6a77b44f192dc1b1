package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** The driver's invariants over random ports, plans and sleeps, on virtual time. */
class WaitPropertiesTest {
    static final long T0 = 1_000_000_000L;

    @Property(tries = 400)
    void the_wait_keeps_its_invariants(
            @ForAll boolean flag,
            @ForAll @LongRange(min = 1, max = 2_000) long parkUs,
            @ForAll @LongRange(min = 1, max = 3_000) long backstopUs,
            @ForAll @LongRange(min = 0, max = 8_000_000) long done,
            @ForAll @LongRange(min = 0, max = 8_000_000) long word,
            @ForAll boolean wordWorks,
            @ForAll @LongRange(min = -1, max = 6_000_000) long ask,
            @ForAll @LongRange(min = 0, max = 500_000) long overshoot,
            @ForAll @IntRange(min = 0, max = 3) int failMode,
            @ForAll @LongRange(min = 0, max = 8_000_000) long failAfter) throws InterruptedException {
        WaitPlan plan = flag ? new WaitPlan.FlagWait(parkUs * 1000, backstopUs * 1000, Optional.empty())
                : new WaitPlan.QueryPoll(Optional.empty());
        ManualClock clock = new ManualClock(T0);
        FakePort port = new FakePort(clock, T0 + done);
        port.wordAt = T0 + Math.min(word, done); // a device stores the word behind its work: never after done
        port.wordWorks = wordWorks;
        RuntimeException failure = new ReactorException(ErrorCode.Backend, "sim", "query", 1, "E", "failed");
        if (failMode == 0) {
            port.fail = failure;
            port.failAt = T0 + failAfter;
        }
        List<Long> sleeps = new ArrayList<>();
        Sleeper s = clock.sleeper(overshoot);
        OptionalLong sleep = ask < 0 ? OptionalLong.empty() : OptionalLong.of(ask);

        Outcome outcome;
        try {
            outcome = Wait.run(plan, port, clock, at -> { sleeps.add(at); s.sleepUntil(at); }, sleep);
        } catch (ReactorException e) {
            assertTrue(e == failure, "only the port's own error ends a wait: " + e);
            assertTrue(clock.nanos() >= port.failAt, "failed before the port failed");
            long parkPhase = ask > 0 && done > 0 ? T0 + ask + overshoot : T0;
            long backstop = flag ? backstopUs * 1000 : 0;
            assertTrue(clock.nanos() <= Math.max(port.failAt, parkPhase) + backstop,
                    "a failure at " + port.failAt + " seen only at " + clock.nanos());
            return;
        }
        // Never done before the port said so, and the port's last word was "done".
        assertTrue(port.lastAnswer, "returned without a query saying done");
        assertTrue(clock.nanos() >= T0 + done, "returned before done");
        assertTrue(outcome.elapsedNanos() <= clock.nanos() - T0, "elapsed beyond the clock");

        // At most one sleep, exactly to the asked deadline, and only when there was a positive ask.
        if (ask > 0 && done > 0) {
            assertEquals(List.of(T0 + ask), sleeps);
        } else {
            assertEquals(List.of(), sleeps);
        }

        // The outcome kind follows from when the work finished.
        if (done == 0) {
            assertEquals(new Outcome.Immediate(0), outcome);
        } else if (ask > 0 && done <= ask + overshoot) {
            assertEquals(new Outcome.Late(ask + overshoot), outcome);
        } else {
            assertInstanceOf(Outcome.Exact.class, outcome);
            assertTrue(outcome.elapsedNanos() >= Math.min(done, wordWorks && flag ? Math.min(word, done) : done));
        }

        if (flag) {
            assertTrue(port.armed <= 1);
            for (long[] p : port.parkCalls) assertTrue(p[1] <= parkUs * 1000, "a park over park_ns");
            long parkPhase = ask > 0 ? T0 + ask + overshoot : T0;
            assertTrue(port.largestQueryGapFrom(parkPhase) <= backstopUs * 1000, "queries further apart than the backstop");
        } else {
            assertEquals(0, port.armed);
            assertEquals(0, port.parks);
        }
    }
}
