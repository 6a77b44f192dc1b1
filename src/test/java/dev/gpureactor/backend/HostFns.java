package dev.gpureactor.backend;

import dev.gpureactor.demo.HostBodies;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Host functions for {@code cuLaunchHostFunc} / {@code hipLaunchHostFunc}: Java code that runs in
 * stream order, on the real drivers and the stand-ins alike. A {@link Gate} is a "kernel" that
 * stands still until opened; a marker records that the work before it finished. The bodies and their
 * upcall are the GPU demo's ({@link HostBodies}).
 */
public final class HostFns {
    /** The bodies, for the test JVM's whole life (never closed: a stream of any test may still reach one). */
    private static final HostBodies BODIES = new HostBodies();
    /** {@code void fn(void *userData)}: the upcall every host function goes through. */
    public static final MemorySegment STUB = BODIES.stub();

    private HostFns() {}

    /** Registers a body; returns the userData to pass with {@link #STUB}. */
    public static MemorySegment register(Runnable body) {
        return BODIES.register(body);
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
