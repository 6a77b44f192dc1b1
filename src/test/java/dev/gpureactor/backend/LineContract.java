package dev.gpureactor.backend;

import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.gpureactor.backend.PortWaits.FLAG;
import static dev.gpureactor.backend.PortWaits.await;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every vendor's line and port do alike, written once and run against each vendor's rig (the
 * stand-in always, the real library where one is found): {@code CudaLineTest} and {@code HipLineTest}
 * subclass it and add only what differs (their calls, flags, domains and errors). No timing assertions:
 * the waits are ordered by gates; timeouts are hang guards only.
 *
 * @param <S> the vendor's stream
 * @param <P> the vendor's port
 * @param <R> the vendor's rig
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@SuppressWarnings("restricted")
public abstract class LineContract<S extends DriverStream, P extends DriverPort<S>, R extends DriverRig<S>> {
    /** The vendor's rig of a kind ("standin", "real"). */
    protected abstract R open(String kind);

    /** A new line of the rig's current device. */
    protected abstract MappedLine<S, P> line(R rig);

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void theStoreLandsOnlyAfterTheKernelAndPublishesItsPayload(String kind) throws Exception {
        try (R rig = open(kind); MappedLine<S, P> line = line(rig)) {
            S s = rig.stream();
            long payload = rig.mappedPage(4096);
            long payloadDevice = rig.devicePointer(payload);
            AtomicBoolean kernelFinished = new AtomicBoolean();

            HostFns.Gate gate = rig.gate(s);                        // the "kernel" holds the stream
            if (rig.standinOnly()) rig.hooks.launchSleep(s.handle(), 20_000); // and a sleeping stand-in kernel
            rig.fill(s, payloadDevice, (byte) 0x5A, 4096);           // the kernel's payload
            rig.hostFn(s, () -> kernelFinished.set(true));           // marks the end of the work
            P port = line.port(s, Slot.of(3), 7, gate.openOnFirstPark(WordPark.spinThenPark()));
            port.arm();                                              // the store, behind all of it
            P watcher = line.port(s, Slot.of(3), 7);                 // another waiter on the same word

            assertTrue(gate.awaitEntered(60), "the stream reached the kernel");
            for (int i = 0; i < 20; i++) {
                assertEquals(0, line.line().word(Slot.of(3)), "the word is not written while the kernel runs");
                assertFalse(port.query());
                Thread.sleep(1);
            }
            assertFalse(watcher.park(1_000_000), "a bounded park ends without the word");

            AtomicBoolean sawFinished = new AtomicBoolean();
            Thread waiter = Thread.ofPlatform().start(() -> {
                try {
                    while (!watcher.park(1_000_000)) Thread.onSpinWait();
                    sawFinished.set(kernelFinished.get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Outcome o = await(port, FLAG); // its first park opens the gate
            assertInstanceOf(Outcome.Exact.class, o, "the wait saw the work pending, then done");
            waiter.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(waiter.isAlive());
            assertTrue(sawFinished.get(), "the word was reached only after the kernel finished");
            assertEquals(7, line.line().word(Slot.of(3)));
            MemorySegment bytes = MemorySegment.ofAddress(payload).reinterpret(4096);
            for (long i = 0; i < 4096; i++) assertEquals((byte) 0x5A, bytes.get(JAVA_BYTE, i), "payload byte " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void aThousandPlatformThreadsWaitOnOneStream(String kind) throws Exception {
        thousandWaiters(kind, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void aThousandVirtualThreadsWaitOnOneStream(String kind) throws Exception {
        thousandWaiters(kind, true);
    }

    private void thousandWaiters(String kind, boolean virtual) throws Exception {
        final int n = 1000;
        // A pure-Java park that polls per waiter would cost a thousand polling threads here; the ports
        // take a shared watcher instead (one thread polls the line, waiters sleep on a monitor): the
        // shape of the loom layer's parker, plugged in through WordPark.
        WaitPlan plan = new WaitPlan.FlagWait(10_000_000, 1_000_000_000, Optional.empty());
        try (R rig = open(kind); MappedLine<S, P> line = line(rig);
             SharedWatch watch = new SharedWatch(line.line())) {
            S s = rig.stream();
            HostFns.Gate gate = rig.gate(s);
            List<P> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) ports.add(line.port(s, Slot.of(1), 1, watch)); // each arms its own store of 1
            ConcurrentLinkedQueue<Object> results = new ConcurrentLinkedQueue<>();
            Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform().stackSize(256 * 1024);
            List<Thread> threads = new ArrayList<>();
            for (P p : ports) {
                threads.add(builder.start(() -> {
                    try {
                        results.add(await(p, plan));
                    } catch (Throwable t) {
                        results.add(t);
                    }
                }));
            }
            long guard = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ports.stream().anyMatch(p -> !p.isArmed()) && System.nanoTime() < guard) Thread.sleep(1);
            assertTrue(ports.stream().allMatch(DriverPort::isArmed), "every waiter queued its store before the gate opened");
            assertEquals(0, line.line().word(Slot.of(1)));
            gate.open();
            for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(threads.stream().noneMatch(Thread::isAlive), "every waiter returned");
            assertEquals(n, results.size());
            for (Object r : results) assertInstanceOf(Outcome.Exact.class, r, String.valueOf(r));
            if (rig.standinOnly()) assertEquals(n, rig.hooks.counter("write_value"));
        }
    }
}
