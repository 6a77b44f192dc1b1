package dev.gpureactor.gpucheck;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * A test that never ends: a spin no interrupt stops, as a wait on a word the GPU never writes. Its
 * timeout runs in a separate thread, so JUnit reports it as timed out and goes on; the dry run checks
 * that the summary says so.
 */
class HangProbe {
    @Test
    @Timeout(value = 2, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void spinsUntilItsTimeoutStopsIt() {
        long spins = 0;
        while (spins >= 0) { // never false: a spin that ignores interrupts
            spins++;
            Thread.onSpinWait();
        }
    }
}
