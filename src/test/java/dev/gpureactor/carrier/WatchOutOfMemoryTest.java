package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The carrier watch outlives an {@code OutOfMemoryError} at one of its looks: an outside probe's allocation storm
 * killed the watch thread ("OutOfMemoryError thrown from the UncaughtExceptionHandler in thread
 * gar-carrier-watch"), and from then on a block the JDK does not compensate hung the pool for good. Here the watch's
 * first looks meet an injected one; then, on one carrier, a virtual thread blocks inside an FFM upcall (pinned:
 * the JDK does not compensate it) until a thread queued behind it runs. Bounds are hang guards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WatchOutOfMemoryTest {
    private static final long GUARD_S = 30;
    private static CountDownLatch release;

    /** qsort's comparator: blocks on the latch with a native frame below it (the carrier stays pinned). */
    static int blockPinned(MemorySegment a, MemorySegment b) {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    @Test
    void after_out_of_memory_at_its_looks_the_watch_still_compensates_a_pinned_carrier() throws Throwable {
        CarrierPool pool = new CarrierPool(1, w -> { });
        AtomicInteger faults = new AtomicInteger(3), looks = new AtomicInteger();
        pool.watch().fault = () -> {
            looks.incrementAndGet();
            if (faults.getAndDecrement() > 0) throw new OutOfMemoryError("injected: a full heap at the watch's look");
        };
        Linker linker = Linker.nativeLinker();
        MethodHandle qsort = linker.downcallHandle(linker.defaultLookup().find("qsort").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        MethodHandle body = MethodHandles.lookup().findStatic(WatchOutOfMemoryTest.class, "blockPinned",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        Arena arena = Arena.global(); // never freed: on a failing run the blocked thread is still inside the upcall
        MemorySegment compare = linker.upcallStub(body, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS), arena);
        MemorySegment two = arena.allocate(ValueLayout.JAVA_INT, 2); // two elements: one comparison
        release = new CountDownLatch(1);
        ThreadFactory threads = pool.threadFactory(VirtualThreads.builder(pool).name("watch-oom-", 0));
        CountDownLatch inside = new CountDownLatch(1);
        Thread blocked = threads.newThread(() -> {
            inside.countDown();
            try {
                qsort.invokeExact(two, 2L, 4L, compare);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        });
        blocked.start();
        assertTrue(inside.await(GUARD_S, TimeUnit.SECONDS));
        Thread releaser = threads.newThread(release::countDown); // queued behind the pinned carrier
        releaser.start();
        assertTrue(releaser.join(Duration.ofSeconds(GUARD_S)), "the queued thread never ran: no compensation ("
                + pool.compensations() + ", watch looks " + looks.get() + ", watch left " + pool.watchHasLeft() + ")");
        assertTrue(blocked.join(Duration.ofSeconds(GUARD_S)));
        assertTrue(looks.get() > 3, "the watch looked again after the faults: " + looks.get());
        assertTrue(pool.compensations() >= 1);
        pool.close();
    }
}
