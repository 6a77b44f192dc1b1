package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code join()} never pins its carrier: while many virtual threads on the reactor's carriers wait
 * for the simulated device in every way a caller can ({@link GpuFuture#join()},
 * {@link GpuFuture#join(Duration)}, {@link GpuFuture#get(long, TimeUnit)}, through
 * {@link GpuExecutorService}, and {@code toCompletableFuture().join()}), a JFR recording of
 * {@code jdk.VirtualThreadPinned} (threshold 0, so every pinned park counts) stays empty.
 *
 * <p>The positive control proves the harness sees a pin when there is one: a virtual thread on the
 * same carriers that parks inside an FFM upcall (a native frame on its stack, which no JDK release
 * can unmount) yields exactly such an event, for that thread.
 *
 * <p>Every waiter is seen parked ({@link Thread.State#WAITING} or {@code TIMED_WAITING}) before
 * the device may finish, so each one really parked while the recording ran. A warm-up round runs
 * first, outside the recording, so that first-use class initialisation (a JVM-internal wait that
 * is not this library's) is out of the picture.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@SuppressWarnings("restricted")
class PinningTest {
    private static final String PINNED = "jdk.VirtualThreadPinned";
    private static final long GUARD_S = 60;

    @TempDir
    Path tmp;

    /** The upcall target of the positive control: a park with a native frame below it. */
    private static void parkInsideUpcall() {
        LockSupport.parkNanos(20_000_000);
    }

    @Test
    void the_harness_sees_a_virtual_thread_that_parks_inside_an_upcall() throws Exception {
        MethodHandle target = MethodHandles.lookup().findStatic(PinningTest.class, "parkInsideUpcall",
                MethodType.methodType(void.class));
        Linker linker = Linker.nativeLinker();
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); Arena arena = Arena.ofShared()) {
            MemorySegment stub = linker.upcallStub(target, FunctionDescriptor.ofVoid(), arena);
            MethodHandle callStub = linker.downcallHandle(stub, FunctionDescriptor.ofVoid());
            AtomicReference<Throwable> failed = new AtomicReference<>();
            AtomicReference<String> carrier = new AtomicReference<>();
            AtomicReference<Thread> control = new AtomicReference<>();
            List<RecordedEvent> events = record(() -> {
                Thread t = r.startVirtualThread(() -> {
                    carrier.set(Thread.currentThread().toString());
                    try {
                        callStub.invokeExact(); // Java -> native -> Java: parks with a native frame on the stack
                    } catch (Throwable e) {
                        failed.set(e);
                    }
                });
                control.set(t);
                assertTrue(t.join(Duration.ofSeconds(GUARD_S)));
            });
            assertNull(failed.get());
            assertTrue(carrier.get().contains("@gar-carrier-"), "the control ran on our carriers: " + carrier.get());
            long id = control.get().threadId();
            assertTrue(events.stream().anyMatch(e -> threadId(e) == id),
                    "the pinned park of the control thread was recorded: " + describe(events));
        }
    }

    @Test
    void virtual_threads_waiting_on_the_device_in_every_way_never_pin_their_carriers() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); SimDevice dev = SimDevice.open();
             GpuExecutorService exec = r.newExecutor()) {
            round(r, exec, dev, 8); // warm-up, not recorded
            AtomicReference<Round> result = new AtomicReference<>();
            List<RecordedEvent> events = record(() -> result.set(round(r, exec, dev, 60)));
            Round done = result.get();
            assertEquals(done.expected(), done.completed().get(), "every wait completed with its result");
            assertTrue(done.offCarrier().isEmpty(), "waits ran on our carriers only: " + done.offCarrier());
            assertEquals(List.of(), describe(events), "no virtual thread pinned its carrier while waiting");
        }
    }

    /** What one round saw. */
    record Round(int expected, AtomicInteger completed, Set<String> offCarrier) {}

    /**
     * {@code perWay} waits in each of five ways on futures of a device held still by a gate; the gate
     * opens once every waiter is parked.
     */
    private static Round round(GpuReactor r, GpuExecutorService exec, SimDevice dev, int perWay) throws Exception {
        SimStream s = dev.stream();
        CountDownLatch gate = new CountDownLatch(1);
        s.compute(Duration.ZERO, () -> GpuExecutorServiceTest.awaitQuietly(gate));
        int ways = 5, n = ways * perWay;
        List<GpuFuture<Long>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            SimStream.Signal sig = s.signal();
            long target = sig.descriptor().target();
            futures.add(r.await(sig.descriptor(), sig.port(), () -> target));
        }
        Set<Thread> waiters = ConcurrentHashMap.newKeySet();
        Set<String> offCarrier = ConcurrentHashMap.newKeySet();
        AtomicInteger completed = new AtomicInteger();
        List<Thread> started = new ArrayList<>();
        List<Future<?>> submitted = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GpuFuture<Long> f = futures.get(i);
            long want = f.descriptor().target();
            int way = i % ways;
            Runnable wait = () -> {
                Thread me = Thread.currentThread();
                if (!me.isVirtual() || !me.toString().contains("@gar-carrier-")) offCarrier.add(me.toString());
                waiters.add(me);
                try {
                    long got = switch (way) {
                        case 0, 3 -> f.join();
                        case 1 -> f.join(Duration.ofSeconds(GUARD_S));
                        case 2 -> f.get(GUARD_S, TimeUnit.SECONDS);
                        default -> f.toCompletableFuture().join();
                    };
                    if (got == want) completed.incrementAndGet();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            };
            if (way == 3) submitted.add(exec.submit(wait)); else started.add(r.startVirtualThread(wait));
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
        while (!allParked(waiters, n) && System.nanoTime() < end) Thread.sleep(1);
        assertTrue(allParked(waiters, n), "every waiter parked before the device finished");
        gate.countDown();
        for (Thread t : started) assertTrue(t.join(Duration.ofSeconds(GUARD_S)));
        for (Future<?> f : submitted) f.get(GUARD_S, TimeUnit.SECONDS);
        return new Round(n, completed, offCarrier);
    }

    private static boolean allParked(Set<Thread> waiters, int n) {
        if (waiters.size() < n) return false;
        for (Thread t : waiters) {
            Thread.State st = t.getState();
            if (st != Thread.State.WAITING && st != Thread.State.TIMED_WAITING) return false;
        }
        return true;
    }

    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    /** Runs {@code body} under a recording of pinned parks (threshold 0) and returns the events. */
    private List<RecordedEvent> record(Body body) throws Exception {
        Path file = tmp.resolve("pinned-" + System.nanoTime() + ".jfr");
        try (Recording rec = new Recording()) {
            rec.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
            rec.start();
            try {
                body.run();
            } finally {
                rec.stop();
                rec.dump(file);
            }
        }
        return events(file);
    }

    private static List<RecordedEvent> events(Path file) throws IOException {
        return RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().equals(PINNED)).toList();
    }

    private static long threadId(RecordedEvent e) {
        RecordedThread t = e.getThread();
        return t == null ? -1 : t.getJavaThreadId();
    }

    private static List<String> describe(List<RecordedEvent> events) {
        return events.stream().map(e -> {
            RecordedThread t = e.getThread();
            String frames = e.getStackTrace() == null ? "" : e.getStackTrace().getFrames().stream().limit(8)
                    .map(RecordedFrame::getMethod).map(m -> m.getType().getName() + "." + m.getName())
                    .collect(Collectors.joining(" < "));
            return (t == null ? "?" : t.getJavaName()) + ": " + frames;
        }).toList();
    }
}
