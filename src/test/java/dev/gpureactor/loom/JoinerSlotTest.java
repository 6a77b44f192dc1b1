package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The future's sole joiner slot ({@link JoinerStack}): the first thread to join waits there, without a node;
 * any other waits on the stack; a move of the state wakes both; a joiner that leaves early gives the slot back.
 * The race of a registration against the settle is jcstress's ({@code JoinerWakeStress} for the slot,
 * {@code SecondJoinerWakeStress} for the stack).
 */
class JoinerSlotTest {
    private static final Duration GUARD = Duration.ofSeconds(30);

    @Test
    void the_first_joiner_waits_in_the_slot_a_second_on_the_stack_and_the_store_wakes_both() throws Exception {
        try (SimDevice dev = SimDevice.open(); GpuReactor r = GpuReactor.builder().build()) {
            CountDownLatch gate = new CountDownLatch(1);
            GpuFuture<Void> f = held(dev, r, gate);
            Thread first = r.startVirtualThread(f::join);
            parked(first, Thread.State.WAITING);
            assertSame(first, f.soleJoiner(), "the first joiner waits in the slot");
            Thread second = r.startVirtualThread(f::join);
            parked(second, Thread.State.WAITING);
            assertSame(first, f.soleJoiner(), "a second joiner leaves the slot to the first (it waits on the stack)");
            gate.countDown();
            assertTrue(first.join(GUARD), "the slot's joiner was woken");
            assertTrue(second.join(GUARD), "the stack's joiner was woken");
            assertNull(f.soleJoiner(), "the settle took the slot's joiner out");
        }
    }

    @Test
    void a_joiner_whose_limit_passes_gives_the_slot_back_and_the_next_joiner_takes_it() throws Exception {
        try (SimDevice dev = SimDevice.open(); GpuReactor r = GpuReactor.builder().build()) {
            CountDownLatch gate = new CountDownLatch(1);
            GpuFuture<Void> f = held(dev, r, gate);
            AtomicReference<ReactorException> failure = new AtomicReference<>();
            Thread early = r.startVirtualThread(() -> {
                try {
                    f.join(Duration.ofMillis(20));
                } catch (ReactorException e) {
                    failure.set(e);
                }
            });
            assertTrue(early.join(GUARD), "the limited joiner returned");
            assertEquals(ErrorCode.Timeout, failure.get().code(), "its limit ended its wait");
            assertNull(f.soleJoiner(), "it gave the slot back as it left");
            Thread next = r.startVirtualThread(f::join);
            parked(next, Thread.State.WAITING);
            assertSame(next, f.soleJoiner(), "the next joiner waits in the slot");
            gate.countDown();
            assertTrue(next.join(GUARD), "and is woken by the store");
        }
    }

    /** A wait on a store that the device makes once {@code gate} opens. */
    private static GpuFuture<Void> held(SimDevice dev, GpuReactor r, CountDownLatch gate) {
        SimStream.Signal sig = dev.stream().hold(gate).signal();
        return r.await(sig.descriptor(), sig.port());
    }

    private static void parked(Thread t, Thread.State state) throws InterruptedException {
        long by = System.nanoTime() + GUARD.toNanos();
        while (t.getState() != state) {
            if (System.nanoTime() - by > 0) throw new AssertionError(t + " never parked: " + t.getState());
            Thread.sleep(1);
        }
    }
}
