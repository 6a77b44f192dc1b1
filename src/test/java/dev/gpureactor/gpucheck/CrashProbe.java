package dev.gpureactor.gpucheck;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A JVM crash, as a native call into a bad driver pointer would make: a store to address 8. The dry
 * run checks that the crash log (SIGSEGV, the problematic frame, the Java frames) lands in the log
 * that comes back and in the summary, and that the next classes still run.
 */
@SuppressWarnings("restricted") // FFM: reinterpret gives the null page a size, on purpose
class CrashProbe {
    @Test
    void storesToTheNullPage() {
        MemorySegment.ofAddress(8).reinterpret(8).set(JAVA_LONG, 0, 42L);
    }
}
