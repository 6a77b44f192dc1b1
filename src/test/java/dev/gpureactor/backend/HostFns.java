package dev.gpureactor.backend;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Host functions for {@code cuLaunchHostFunc} / {@code hipLaunchHostFunc}: Java code that runs in
 * stream order, on the real drivers and the stand-ins alike. A {@link Gate} is a "kernel" that
 * stands still until opened; a marker records that the work before it finished.
 */
@SuppressWarnings("restricted")
public final class HostFns {
    private static final ConcurrentHashMap<Long, Runnable> BODIES = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong(1);
    /** {@code void fn(void *userData)}: the upcall every host function goes through. */
    public static final MemorySegment STUB;

    static {
        try {
            var mh = MethodHandles.lookup().findStatic(HostFns.class, "run", MethodType.methodType(void.class, MemorySegment.class));
            STUB = Linker.nativeLinker().upcallStub(mh, FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private HostFns() {}

    /** Never unwinds into the driver: an exception escaping an upcall would end the JVM. */
    private static void run(MemorySegment user) {
        try {
            Runnable body = BODIES.remove(user.address());
            if (body != null) body.run();
        } catch (Throwable ignored) {
            // nothing may escape
        }
    }

    /** Registers a body; returns the userData to pass with {@link #STUB}. */
    public static MemorySegment register(Runnable body) {
        long id = IDS.getAndIncrement();
        BODIES.put(id, body);
        return MemorySegment.ofAddress(id);
    }

    /** A host function that blocks its stream until {@link #open()} (or two minutes, as a hang guard). */
    public static final class Gate {
        private final CountDownLatch latch = new CountDownLatch(1);
        private final CountDownLatch entered = new CountDownLatch(1);

        public MemorySegment userData() {
            return register(() -> {
                entered.countDown();
                try {
                    latch.await(2, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        public void open() { latch.countDown(); }

        /**
         * A park that opens this gate when it is first called, then parks as {@code inner}: a wait
         * that parks has surely seen the work pending first, so its outcome is exact, not immediate.
         */
        public WordPark openOnFirstPark(WordPark inner) {
            return (word, bound) -> {
                open();
                return inner.park(word, bound);
            };
        }

        /** Waits until the stream reached the gate. */
        public boolean awaitEntered(long seconds) throws InterruptedException {
            return entered.await(seconds, TimeUnit.SECONDS);
        }
    }
}
