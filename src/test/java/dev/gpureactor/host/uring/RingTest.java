package dev.gpureactor.host.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ring against the real kernel. Timing assertions are lower bounds only (correctness), never performance. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RingTest {
    private static final VarHandle I32 = ValueLayout.JAVA_INT.varHandle();

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
        try (Ring r = Ring.open(); Arena a = Arena.ofConfined()) {
            assertEquals(ErrorCode.InvalidArgument, assertThrows(ReactorException.class, () -> r.timeout(-1)).code());
            MemorySegment w = a.allocate(ValueLayout.JAVA_INT);
            assertEquals(ErrorCode.InvalidArgument,
                    assertThrows(ReactorException.class, () -> r.futexWait(w, 0, -1)).code());
            MemorySegment odd = a.allocate(8, 8).asSlice(1, 4);
            assertEquals(ErrorCode.InvalidArgument,
                    assertThrows(ReactorException.class, () -> r.futexWait(odd, 0, 1_000)).code());
        }
    }

    @Test
    void futexWaitOnAChangedWordReturnsAtOnce() {
        UringTestSupport.requireFutexOps();
        try (Ring r = Ring.open(); Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(ValueLayout.JAVA_INT);
            I32.setRelease(w, 0L, 7);
            assertEquals(Ring.FutexOutcome.VALUE_CHANGED, r.futexWait(w, 6, 10_000_000_000L));
        }
    }

    @Test
    void futexWaitTimesOutWhenNobodyWakes() {
        UringTestSupport.requireFutexOps();
        try (Ring r = Ring.open(); Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(ValueLayout.JAVA_INT);
            long t0 = System.nanoTime();
            assertEquals(Ring.FutexOutcome.TIMED_OUT, r.futexWait(w, 0, 20_000_000L));
            long took = System.nanoTime() - t0;
            assertTrue(took >= 20_000_000L, "timed out after " + took + " ns, before the 20 ms asked");
            assertEquals(Ring.TIMEOUT_EXPIRED, r.timeout(1_000), "nothing left in flight");
        }
    }

    @Test
    void futexWaitReturnsOnAWakeFromAnotherThread() throws Exception {
        UringTestSupport.requireFutexOps();
        try (Ring r = Ring.open(); Arena a = Arena.ofShared()) {
            MemorySegment w = a.allocate(ValueLayout.JAVA_INT);
            // The waker wakes until the kernel reports a waiter woken: then the ring's wait was
            // queued and must come back WOKEN (the word stayed 0, so it cannot be VALUE_CHANGED).
            CompletableFuture<Integer> waker = CompletableFuture.supplyAsync(() -> {
                long until = System.nanoTime() + 20_000_000_000L;
                while (System.nanoTime() < until) {
                    int n = Ring.futexWake(w, 1);
                    if (n > 0) return n;
                    Thread.onSpinWait();
                }
                return 0;
            });
            Ring.FutexOutcome o = r.futexWait(w, 0, 30_000_000_000L);
            assertEquals(1, waker.get(30, TimeUnit.SECONDS), "the waker never found the ring's waiter");
            assertEquals(Ring.FutexOutcome.WOKEN, o);
        }
    }

    @Test
    void aCpuAgentThatStoresThenWakesEndsTheWait() throws Exception {
        UringTestSupport.requireFutexOps();
        try (Ring r = Ring.open(); Arena a = Arena.ofShared()) {
            MemorySegment w = a.allocate(ValueLayout.JAVA_INT);
            Thread agent = Thread.ofPlatform().name("cpu-agent").start(() -> {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
                I32.setRelease(w, 0L, 1); // the "device" store
                Ring.futexWake(w, Integer.MAX_VALUE);
            });
            long t0 = System.nanoTime();
            Ring.FutexOutcome o = r.futexWait(w, 0, 30_000_000_000L);
            long took = System.nanoTime() - t0;
            agent.join(10_000);
            // WOKEN if the wait was queued before the store, VALUE_CHANGED if the store came first;
            // never TIMED_OUT: that would be a lost wakeup.
            assertFalse(o == Ring.FutexOutcome.TIMED_OUT, "lost wakeup: timed out after " + took + " ns");
            assertEquals(1, (int) I32.getAcquire(w, 0L));
        }
    }

    @Test
    void futexWakeWithoutWaitersWakesNobody() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(ValueLayout.JAVA_INT);
            assertEquals(0, Ring.futexWake(w, 1));
        }
    }

    private static ReactorException asReactor(Throwable t) {
        assertTrue(t instanceof ReactorException, "expected a ReactorException, got " + t);
        return (ReactorException) t;
    }
}
