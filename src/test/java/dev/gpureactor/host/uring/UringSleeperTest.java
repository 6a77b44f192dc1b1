package dev.gpureactor.host.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.ReactorException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The io-uring executor's deadline sleep. Lower bounds only (never returns before its deadline); no performance assertions. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UringSleeperTest {
    private final Clock clock = Clock.system();

    @Test
    void sleepsAtLeastToTheDeadline() throws Exception {
        UringTestSupport.requireUring();
        try (UringSleeper s = UringSleeper.open(clock)) {
            long[] asks = {100_000, 1_000_000, 5_000_000};
            for (long d : asks) {
                long at = clock.nanos() + d;
                s.sleepUntil(at);
                long now = clock.nanos();
                assertTrue(now >= at, "woke " + (at - now) + " ns before the deadline");
            }
            assertEquals(asks.length, s.timeouts());
            assertEquals(0, s.failedTimeouts(), () -> "refused: " + s.lastRefusal());
            assertTrue(s.ring().isPresent());
        }
    }

    @Test
    void aPassedDeadlineReturnsWithoutAnOp() throws Exception {
        AtomicInteger ops = new AtomicInteger();
        UringSleeper s = new UringSleeper(clock, null, n -> { ops.incrementAndGet(); return Ring.TIMEOUT_EXPIRED; });
        s.sleepUntil(clock.nanos() - 1);
        s.sleepUntil(clock.nanos());
        assertEquals(0, ops.get());
        assertEquals(0, s.timeouts());
    }

    @Test
    void aRefusedTimeoutFallsBackToAThreadSleepAndIsCounted() throws Exception {
        UringSleeper s = new UringSleeper(clock, null, n -> -Sys.EINVAL);
        long at = clock.nanos() + 2_000_000;
        s.sleepUntil(at);
        assertTrue(clock.nanos() >= at, "the fallback sleep must still reach the deadline");
        assertEquals(1, s.failedTimeouts());
        assertEquals(0, s.timeouts());
        assertTrue(s.lastRefusal().orElseThrow().contains("EINVAL"), s.lastRefusal().orElseThrow());
    }

    @Test
    void aFailedEnterFallsBackToAThreadSleepAndIsCounted() throws Exception {
        UringSleeper s = new UringSleeper(clock, null, n -> {
            throw new ReactorException(ErrorCode.Backend, "io_uring", "io_uring_enter", -9, "EBADF", "simulated");
        });
        long at = clock.nanos() + 1_000_000;
        s.sleepUntil(at);
        s.sleepUntil(clock.nanos() + 1_000_000);
        assertTrue(clock.nanos() >= at);
        assertEquals(2, s.failedTimeouts());
        assertTrue(s.lastRefusal().orElseThrow().contains("simulated"));
    }

    @Test
    void theKernelsOwnRefusalIsCountedToo() throws Exception {
        UringTestSupport.requireUring();
        try (Ring r = Ring.open()) {
            // A negative timespec: io_timeout_prep refuses it, so the op completes with -EINVAL.
            UringSleeper s = new UringSleeper(clock, r, n -> r.timeoutRaw(-1, 0));
            long at = clock.nanos() + 1_000_000;
            s.sleepUntil(at);
            assertTrue(clock.nanos() >= at);
            assertEquals(1, s.failedTimeouts());
            assertTrue(s.lastRefusal().orElseThrow().contains("EINVAL"), s.lastRefusal().orElseThrow());
        }
    }

    @Test
    void aLongSleepRunsInSlicesSoAnInterruptIsSeen() throws Exception {
        ManualClock manual = new ManualClock(1_000);
        List<Long> asked = new ArrayList<>();
        UringSleeper s = new UringSleeper(manual, null, n -> {
            asked.add(n);
            manual.advance(n); // the "kernel" sleeps exactly what it was asked
            return Ring.TIMEOUT_EXPIRED;
        });
        s.sleepUntil(1_000 + 250_000_000L);
        assertEquals(List.of(UringSleeper.MAX_SLICE_NANOS, UringSleeper.MAX_SLICE_NANOS, 50_000_000L), asked);
        assertEquals(3, s.timeouts());

        asked.clear();
        UringSleeper interrupted = new UringSleeper(manual, null, n -> {
            asked.add(n);
            manual.advance(n);
            Thread.currentThread().interrupt(); // arrives while "in the kernel"
            return Ring.TIMEOUT_EXPIRED;
        });
        assertThrows(InterruptedException.class, () -> interrupted.sleepUntil(manual.nanos() + 1_000_000_000L));
        assertEquals(1, asked.size(), "the interrupt is seen after the slice it arrived in");
    }

    @Test
    void anInterruptIsThrown() {
        UringSleeper s = new UringSleeper(clock, null, n -> Ring.TIMEOUT_EXPIRED);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> s.sleepUntil(clock.nanos() + 1_000_000_000L));
        assertTrue(!Thread.currentThread().isInterrupted(), "the flag is consumed by the throw");
    }
}
