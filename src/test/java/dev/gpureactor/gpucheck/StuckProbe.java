package dev.gpureactor.gpucheck;

import org.junit.jupiter.api.Test;

/**
 * A JVM that hangs where no JUnit timeout reaches: the test class's constructor (run on JUnit's own
 * thread, outside every timeout) spins forever. Only the check's bound on the class's JVM stops it;
 * the dry run checks that the summary reports it as killed, with a thread dump in the log, and that
 * the classes before and after it kept their reports.
 */
class StuckProbe {
    StuckProbe() {
        long spins = 0;
        while (spins >= 0) { // never false
            spins++;
            Thread.onSpinWait();
        }
    }

    @Test
    void neverRuns() {}
}
