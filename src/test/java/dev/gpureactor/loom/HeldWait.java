package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;

import java.util.concurrent.CountDownLatch;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A wait that its line's parker holds: the stream's work waits at {@code gate}, so the wait stays
 * pending until the test counts the gate down.
 *
 * @param stream the stream, on a slot of the parker's line
 * @param gate   what the stream's work waits for
 * @param future the wait; its readback answers 1
 * @param parker the parker that holds it
 */
record HeldWait(SimStream stream, CountDownLatch gate, GpuFuture<Integer> future, LineParker parker) {
    /** A new stream of {@code dev}, held at a gate, awaited on {@code r}; returns once the parker holds the wait. */
    static HeldWait on(GpuReactor r, SimDevice dev) throws InterruptedException {
        SimStream s = dev.stream();
        CountDownLatch gate = new CountDownLatch(1);
        s.hold(gate);
        SimStream.Signal first = s.signal();
        GpuFuture<Integer> f = r.await(first.descriptor(), first.port(), () -> 1);
        LineParker p = r.parkerOf(s.line());
        assertNotNull(p);
        until("the parker holds the wait", () -> p.slotSizes().get(s.slot().index()) == 1);
        return new HeldWait(s, gate, f, p);
    }
}
