package dev.gpureactor.backend.metal;

import dev.gpureactor.backend.metal.SharedEventPort.ParkSplit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Metal park's bound: divided to whole milliseconds, every park under 1 ms would become
 * {@code timeoutMS:0}, a bare check, and the parker would spin hot. The port cannot run
 * here (no macOS); the split of the bound is a pure function and is tested as one.
 */
class MetalParkTest {
    @Test
    void aBoundUnderOneMillisecondSleepsInTheOsInsteadOfAZeroMillisecondWait() {
        assertEquals(new ParkSplit(100_000, 0), SharedEventPort.split(100_000));
        assertEquals(new ParkSplit(999_999, 0), SharedEventPort.split(999_999));
        assertEquals(new ParkSplit(1, 0), SharedEventPort.split(1));
    }

    @Test
    void noBoundIsACheckOnly() {
        assertEquals(new ParkSplit(0, 0), SharedEventPort.split(0));
        assertEquals(new ParkSplit(0, 0), SharedEventPort.split(-5));
        assertEquals(new ParkSplit(0, 0), SharedEventPort.split(Long.MIN_VALUE));
    }

    @Test
    void fromOneMillisecondTheEventWaitsNeverPastTheBoundAndAtMostOneSlice() {
        assertEquals(new ParkSplit(0, 1), SharedEventPort.split(1_000_000));
        assertEquals(new ParkSplit(0, 2), SharedEventPort.split(2_999_999));
        assertEquals(new ParkSplit(0, SharedEventPort.BLOCK_SLICE_MS), SharedEventPort.split(Long.MAX_VALUE));
        assertEquals(new ParkSplit(0, SharedEventPort.BLOCK_SLICE_MS), SharedEventPort.split(5_000_000_000L));
    }

    @Test
    void everyPositiveBoundWaitsSomehowAndNeverLongerThanItself() {
        for (long b = 1; b < 400_000_000L; b = b * 3 + 1) {
            ParkSplit s = SharedEventPort.split(b);
            assertTrue(s.sleepNanos() > 0 || s.waitMillis() > 0, "bound " + b + " must not be a bare check: " + s);
            assertTrue(s.sleepNanos() + s.waitMillis() * 1_000_000 <= b, "bound " + b + " overshot: " + s);
        }
    }
}
