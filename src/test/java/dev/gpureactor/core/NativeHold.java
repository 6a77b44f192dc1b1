package dev.gpureactor.core;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A downcall that holds a segment for as long as a test wants, standing in for a native park on a
 * line (the hardware park cannot run on these VMs): libc's {@code bsearch} is passed the segment as
 * its array and calls back a comparator that blocks until {@link #release()}. While it blocks the
 * segment's arena is acquired by the call, exactly as during {@code garpark_park}. {@code bsearch}
 * only reads the array.
 */
@SuppressWarnings("restricted")
public final class NativeHold implements AutoCloseable {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle BSEARCH = LINKER.downcallHandle(
            LINKER.defaultLookup().find("bsearch").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;

    private NativeHold(MemorySegment held) {
        thread = Thread.ofPlatform().name("native-hold").start(() -> {
            try (Arena arena = Arena.ofConfined()) {
                MethodHandle cmp = MethodHandles.lookup()
                        .findVirtual(NativeHold.class, "compare", MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class))
                        .bindTo(this);
                MemorySegment stub = LINKER.upcallStub(cmp, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), arena);
                MemorySegment key = arena.allocate(JAVA_LONG);
                MemorySegment found = (MemorySegment) BSEARCH.invokeExact(key, held, 1L, 8L, stub);
                assert found != null;
            } catch (Throwable t) {
                failure.set(t);
                entered.countDown();
            }
        });
    }

    /** Starts a downcall holding {@code held} and returns once it is inside the call. */
    public static NativeHold start(MemorySegment held) throws InterruptedException {
        NativeHold h = new NativeHold(held);
        if (!h.entered.await(30, TimeUnit.SECONDS)) throw new AssertionError("the downcall never started");
        if (h.failure.get() != null) throw new AssertionError("the downcall failed", h.failure.get());
        return h;
    }

    private int compare(MemorySegment a, MemorySegment b) {
        entered.countDown();
        try {
            released.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** Lets the downcall return, and waits until it has. */
    public void release() throws InterruptedException {
        released.countDown();
        thread.join();
        if (failure.get() != null) throw new AssertionError("the downcall failed", failure.get());
    }

    /** Whether the downcall is still inside the call. */
    public boolean holding() { return thread.isAlive(); }

    @Override
    public void close() throws InterruptedException { release(); }
}
