package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Nothing a user callback does hurts another wait: a warnings sink that throws (on a lost word, on
 * {@code LiveAtClose}, on every warning) affects only itself; a throwing readback or
 * {@code onComplete} action fails only its own wait; every death of a parker's waits is counted in
 * {@code parkersDied}. The device is held on gates, so a healthy wait that a fault ended early
 * would show as failed, not as done.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SinkIsolationTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private static final String PLAN = "flag:park_us=100,backstop_us=1000";

    /** What a logger whose appender is down throws. */
    private static final class SinkDown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SinkDown(Warning w) { super("appender down: " + w.code(), null, false, false); }
    }

    @Test
    void a_sink_that_throws_on_a_lost_word_fails_no_other_wait_of_the_parker() throws Exception {
        List<Warning> seen = new CopyOnWriteArrayList<>();
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).jmx(false).warnings(w -> {
                    seen.add(w);
                    if (w.code() == ErrorCode.WordNeverWritten) throw new SinkDown(w);
                }).build();
             SimDevice dev = SimDevice.open()) {
            SimStream healthy = dev.stream(), lossy = dev.stream(); // two slots of one line: one parker
            assertSame(healthy.line(), lossy.line());
            CountDownLatch gate = new CountDownLatch(1);
            healthy.hold(gate);
            SimStream.Signal h = healthy.signal();
            GpuFuture<Integer> held = r.await(h.descriptor(), h.port(), () -> 42);
            LineParker p = r.parkerOf(healthy.line());
            until("the parker holds the healthy wait", () -> p.slotSizes().get(healthy.slot().index()) == 1);

            SimStream.Signal lost = lossy.signalLost();
            GpuFuture<Integer> f = r.await(lost.descriptor(), lost.port(), () -> 5);
            until("the lost word's wait is done", f::isDone); // the parker's backstop query says done
            assertEquals(5, f.join());
            // The parker signals first and warns after: wait for the warning, not just the outcome.
            until("the lost word is warned", () -> seen.stream().anyMatch(w -> w.code() == ErrorCode.WordNeverWritten));
            until("the sink's throw is counted", () -> r.warningSinkFailures() == 1);

            assertFalse(held.isDone(), "the healthy wait is untouched: " + held + ", " + held.failureCode());
            assertNull(held.failureCode());
            gate.countDown();
            assertEquals(42, held.join(HANG_GUARD), "the healthy wait completes with its value, not ParkerDied");
            assertEquals(0, r.stats().parkersDied(), r.stats().toString());
            assertTrue(p.isLive());
            assertTrue(r.warnings().stream().noneMatch(w -> w.code() == ErrorCode.ParkerDied), r.warnings().toString()); // kept as raised
        }
    }

    /**
     * A sink that blocks (a logger whose appender hangs on a slow disk or a remote syslog) holds only the reactor's
     * reporter thread: the parker that raised the warning goes on watching its line, and another wait of that line
     * completes while the sink still blocks (an outside probe: the parker, logging in place, held every wait of its
     * lines for as long as the appender blocked).
     */
    @Test
    void a_sink_that_blocks_on_a_parkers_warning_holds_no_wait_of_that_parker() throws Exception {
        CountDownLatch sinkBlocked = new CountDownLatch(1), release = new CountDownLatch(1);
        List<String> sinkThreads = new CopyOnWriteArrayList<>();
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).jmx(false).warnings(w -> {
                    if (w.code() != ErrorCode.WordNeverWritten) return;
                    sinkThreads.add(Thread.currentThread().getName());
                    sinkBlocked.countDown();
                    try { release.await(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
                }).build();
             SimDevice dev = SimDevice.open()) {
            try {
                SimStream healthy = dev.stream(), lossy = dev.stream(); // two slots of one line: one parker
                assertSame(healthy.line(), lossy.line());
                SimStream.Signal lost = lossy.signalLost();
                GpuFuture<Integer> f = r.await(lost.descriptor(), lost.port(), () -> 5);
                assertEquals(5, f.join(HANG_GUARD)); // the parker's backstop query says done; it warns WordNeverWritten
                assertTrue(sinkBlocked.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS), "the lost word was warned");
                healthy.compute(Duration.ofMillis(2));
                SimStream.Signal h = healthy.signal();
                GpuFuture<Integer> g = r.await(h.descriptor(), h.port(), () -> 42);
                assertEquals(42, g.join(Duration.ofSeconds(20)), "the parker serves its line while the sink blocks");
                assertEquals(1, sinkThreads.size(), "one warning raised, one delivered");
                assertTrue(sinkThreads.getFirst().startsWith("gar-reporter-"), "delivered by the reporter: " + sinkThreads);
            } finally {
                release.countDown();
            }
        }
    }

    /**
     * Closing while a sink blocks on a parker's warning ends every pending wait at once with {@code ShutDown}, and the
     * close returns within its grace (the probe's joiners got {@code ShutDown} 19 s late, when the appender let go).
     */
    @Test
    void close_while_a_sink_blocks_ends_every_pending_wait() throws Exception {
        CountDownLatch sinkBlocked = new CountDownLatch(1), release = new CountDownLatch(1);
        GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).jmx(false).warnings(w -> {
            if (w.code() != ErrorCode.WordNeverWritten) return;
            sinkBlocked.countDown();
            try { release.await(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }).build();
        try (SimDevice dev = SimDevice.open()) {
            SimStream held = dev.stream(), lossy = dev.stream();
            held.hold(new CountDownLatch(1));
            SimStream.Signal pending = held.signal();
            GpuFuture<Integer> p = r.await(pending.descriptor(), pending.port(), () -> 1);
            SimStream.Signal lost = lossy.signalLost();
            assertEquals(5, r.await(lost.descriptor(), lost.port(), () -> 5).join(HANG_GUARD));
            assertTrue(sinkBlocked.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS), "the lost word was warned");
            Thread joiner = r.startVirtualThread(() -> assertThrows(ReactorException.class, p::join));
            r.close();
            ReactorException e = assertThrows(ReactorException.class, () -> p.join(Duration.ofSeconds(20)));
            assertEquals(ErrorCode.ShutDown, e.code(), "ended by the close, not by the join's limit");
            assertTrue(joiner.join(Duration.ofSeconds(20)), "the virtual joiner was answered");
        } finally {
            release.countDown();
        }
    }

    @Test
    void a_sink_that_throws_on_every_warning_fails_no_build_no_wait_and_no_close() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).jmx(false).warnings(w -> {
            calls.incrementAndGet();
            throw new SinkDown(w);
        }).build();
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofMillis(2));
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 3);
            assertEquals(3, r.newExecutor().submit(() -> f.join()).get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
            assertEquals(calls.get(), r.warningSinkFailures());
            assertEquals(r.warningsRaised(), r.warningSinkFailures(), "every warning reached the sink, and each throw was dropped there");
        } finally {
            r.close();
        }
    }

    @Test
    void a_sink_that_throws_on_live_at_close_lets_close_finish_and_unregister_the_bean() throws Exception {
        List<Warning> seen = new CopyOnWriteArrayList<>();
        GpuReactor r = GpuReactor.builder().carriers(2).name("sink-isolation").warnings(w -> {
            seen.add(w);
            if (w.code() == ErrorCode.LiveAtClose) throw new SinkDown(w);
        }).build();
        ObjectName bean = r.jmxName().orElseThrow();
        assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(bean));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Thread vt = r.startVirtualThread(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                // ends
            }
        });
        assertTrue(started.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
        try {
            assertDoesNotThrow(r::close, "the sink's throw stays with the sink");
            assertTrue(seen.stream().anyMatch(w -> w.code() == ErrorCode.LiveAtClose), seen.toString());
            assertEquals(1, r.warningSinkFailures());
            assertFalse(ManagementFactory.getPlatformMBeanServer().isRegistered(bean), "close unregistered the bean");
            assertTrue(r.jmxName().isEmpty());
            assertDoesNotThrow(r::close, "a second close is nothing");
        } finally {
            release.countDown();
            assertTrue(vt.join(HANG_GUARD));
        }
    }

    @Test
    void a_parker_whose_waits_die_of_an_exception_counts_the_death_and_goes_on() throws Exception {
        List<Warning> seen = new CopyOnWriteArrayList<>();
        ParkerFaults faults = new ParkerFaults();
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).jmx(false).warnings(seen::add).parkerHooks(faults).build();
             SimDevice dev = SimDevice.open()) {
            HeldWait held = HeldWait.on(r, dev);
            SimStream s = held.stream();
            LineParker p = held.parker();
            AtomicInteger once = new AtomicInteger(1);
            faults.pass.put(p, () -> {
                if (once.getAndDecrement() == 1) throw new IllegalStateException("injected, once");
            });
            ReactorException e = assertThrows(ReactorException.class, () -> held.future().join(HANG_GUARD));
            assertEquals(ErrorCode.ParkerDied, e.code());
            assertEquals(1, r.stats().parkersDied(), "the death of its waits is counted, though its thread goes on");
            assertEquals(1, r.warnings().stream().filter(w -> w.code() == ErrorCode.ParkerDied).count(), r.warnings().toString());
            // The sink hears a parker's warning from the reactor's reporter thread, once.
            until("the sink hears the death", () -> seen.stream().anyMatch(w -> w.code() == ErrorCode.ParkerDied));
            assertEquals(1, seen.stream().filter(w -> w.code() == ErrorCode.ParkerDied).count(), seen.toString());
            assertTrue(p.isLive(), "an exception ends the waits, not the thread");

            SimStream.Signal second = s.signal();
            GpuFuture<Integer> g = r.await(second.descriptor(), second.port(), () -> 2);
            assertSame(p, r.parkerOf(s.line()));
            held.gate().countDown();
            assertEquals(2, g.join(HANG_GUARD));
            assertEquals(1, r.stats().parkersDied());
        }
    }

    @Test
    void a_registration_not_yet_taken_in_when_the_parker_meets_an_exception_is_served_not_failed() throws Exception {
        ParkerFaults faults = new ParkerFaults();
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).jmx(false).warnings(w -> { }).parkerHooks(faults).build();
             SimDevice dev = SimDevice.open()) {
            HeldWait held = HeldWait.on(r, dev);
            SimStream s = held.stream();
            AtomicInteger once = new AtomicInteger(1);
            java.util.concurrent.atomic.AtomicReference<GpuFuture<Integer>> late = new java.util.concurrent.atomic.AtomicReference<>();
            faults.pass.put(held.parker(), () -> {
                if (once.getAndDecrement() != 1) return;
                SimStream.Signal second = s.signal();
                late.set(r.await(second.descriptor(), second.port(), () -> 2)); // in the inbox as the exception comes
                throw new IllegalStateException("injected, once");
            });
            ReactorException e = assertThrows(ReactorException.class, () -> held.future().join(HANG_GUARD));
            assertEquals(ErrorCode.ParkerDied, e.code(), "the wait the parker held dies");
            held.gate().countDown();
            assertEquals(2, late.get().join(HANG_GUARD), "the one it had not taken in is the next turn's, not failed ParkerDied");
            assertEquals(1, r.stats().parkersDied());
        }
    }

    @Test
    void a_throwing_readback_or_callback_fails_only_its_own_wait() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).jmx(false).build();
             SimDevice dev = SimDevice.open();
             GpuExecutorService exec = r.newExecutor()) {
            SimStream a = dev.stream(), b = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            a.hold(gate);
            b.hold(gate);
            SimStream.Signal sa = a.signal(), sb = b.signal();
            IllegalStateException boom = new IllegalStateException("readback failed");
            GpuFuture<Integer> bad = r.await(sa.descriptor(), sa.port(), () -> { throw boom; });
            GpuFuture<Integer> good = r.await(sb.descriptor(), sb.port(), () -> 9);
            CountDownLatch callbacksRan = new CountDownLatch(2);
            List<Object> goodSaw = new CopyOnWriteArrayList<>();
            bad.onComplete((v, t) -> {
                callbacksRan.countDown();
                throw new IllegalStateException("callback failed");
            });
            good.onComplete((v, t) -> {
                callbacksRan.countDown();
                throw new IllegalStateException("callback failed");
            });
            good.onComplete((v, t) -> goodSaw.add(v));
            gate.countDown();
            var joinBad = exec.submit(() -> assertThrows(CompletionException.class, bad::join));
            assertEquals(9, exec.submit(() -> good.join()).get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
            assertSame(boom, joinBad.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS).getCause());
            assertTrue(callbacksRan.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
            until("the good wait's second callback ran", () -> !goodSaw.isEmpty());
            assertEquals(List.of(9), goodSaw);
            assertEquals(0, r.stats().parkersDied());
        }
    }
}
