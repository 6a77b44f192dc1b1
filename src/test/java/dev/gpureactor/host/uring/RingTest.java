package dev.gpureactor.host.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ring against the real kernel. Timing assertions are lower bounds only (correctness), never performance. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RingTest {
    @BeforeEach
    void uring() {
        UringTestSupport.requireUring();
    }

    @Test
    void setupGivesTheCratesEightEntries() {
        try (Ring r = Ring.open()) {
            assertEquals(Ring.DEFAULT_ENTRIES, r.entries());
            assertTrue(r.completionEntries() >= r.entries());
            assertEquals(Thread.currentThread(), r.owner());
            System.out.println("[uring] " + r + ", features 0x" + Integer.toHexString(r.features())
                    + ", single mmap " + r.singleMmap());
        }
    }

    @Test
    void timeoutExpiresWithEtimeAndNotBeforeItsTime() {
        try (Ring r = Ring.open()) {
            for (long nanos : new long[] {50_000, 1_000_000, 3_000_000}) {
                long t0 = System.nanoTime();
                int res = r.timeout(nanos);
                long took = System.nanoTime() - t0;
                assertEquals(Ring.TIMEOUT_EXPIRED, res);
                assertEquals(-62, res);
                assertTrue(took >= nanos, "returned after " + took + " ns, before the requested " + nanos);
            }
        }
    }

    @Test
    void separateRingMappingsWorkToo() {
        // The path of kernels before 5.4 (no IORING_FEAT_SINGLE_MMAP), run on this one.
        Ring.Opened o = Ring.tryOpen(4, true);
        try (Ring r = o.ring()) {
            assertFalse(r.singleMmap());
            for (int i = 0; i < 20; i++) assertEquals(Ring.TIMEOUT_EXPIRED, r.timeout(1_000));
        }
    }

    @Test
    void zeroTimeoutExpiresAtOnce() {
        try (Ring r = Ring.open()) {
            assertEquals(Ring.TIMEOUT_EXPIRED, r.timeout(0));
        }
    }

    @Test
    void manyTimeoutsWrapTheRingIndicesCleanly() {
        try (Ring r = Ring.open(2)) {
            for (int i = 0; i < 100; i++) assertEquals(Ring.TIMEOUT_EXPIRED, r.timeout(1_000), "op " + i);
        }
    }

    @Test
    void aMalformedTimespecIsRefusedByTheKernel() {
        try (Ring r = Ring.open()) {
            assertEquals(-Sys.EINVAL, r.timeoutRaw(-1, 0));
            assertEquals(Ring.TIMEOUT_EXPIRED, r.timeout(1_000), "a refused op leaves the ring usable");
        }
    }

    @Test
    void aRingBelongsToItsThread() throws Exception {
        try (Ring r = Ring.open()) {
            AtomicReference<Throwable> seen = new AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    r.timeout(1_000);
                } catch (Throwable t) {
                    seen.set(t);
                }
            }, "not-the-owner");
            other.start();
            other.join(10_000);
            ReactorException e = asReactor(seen.get());
            assertEquals(ErrorCode.InvalidArgument, e.code());
            assertTrue(e.getMessage().contains("not-the-owner"), e.getMessage());
        }
    }

    @Test
    void aClosedRingRefusesAndClosesOnce() {
        Ring r = Ring.open();
        r.close();
        r.close();
        assertTrue(r.isClosed());
        ReactorException e = assertThrows(ReactorException.class, () -> r.timeout(1_000));
        assertEquals(ErrorCode.InvalidArgument, e.code());
    }

    @Test
    void negativeDurationsAreRejected() {
        try (Ring r = Ring.open()) {
            assertEquals(ErrorCode.InvalidArgument, assertThrows(ReactorException.class, () -> r.timeout(-1)).code());
        }
    }

    private static ReactorException asReactor(Throwable t) {
        assertTrue(t instanceof ReactorException, "expected a ReactorException, got " + t);
        return (ReactorException) t;
    }
}
