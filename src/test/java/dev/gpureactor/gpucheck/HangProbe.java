package dev.gpureactor.gpucheck;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * A test that never ends: a spin no interrupt stops, as a wait on a word the GPU never writes. Its
 * timeout names no thread mode: the check's default (SEPARATE_THREAD, for every class it runs) is what
 * lets JUnit report it as timed out and go on, within the class's 8 s bound; the dry run checks that
 * the summary says so.
 */
class HangProbe {
    @Test
    @Timeout(value = 2, unit = TimeUnit.SECONDS)
    void spinsUntilItsTimeoutStopsIt() {
        long spins = 0;
        while (spins >= 0) { // never false: a spin that ignores interrupts
            spins++;
            Thread.onSpinWait();
        }
    }
}
