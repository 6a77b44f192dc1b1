package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link GpuReactor#close()} and the carrier pool's lifecycle: pending device waits
 * fail at once; virtual threads already started keep running to their end, and no resume of one is
 * ever rejected (the JDK's own unparker and unblocker threads call the pool); new starts are
 * rejected with a coded {@link RejectedExecutionException}; close from inside never deadlocks; the
 * carriers leave once the last live thread ends.  No timing
 * thresholds: every bound is a hang guard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CloseLifecycleTest {
    private static final long GUARD_S = 60;

    private static GpuReactor open(List<Warning> warnings) {
        return GpuReactor.builder().carriers(2).warnings(warnings::add).build();
    }

    @Test
    void a_virtual_thread_sleeping_at_close_wakes_and_runs_to_its_end() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        GpuReactor r = open(warnings);
        CountDownLatch sleeping = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Thread vt = r.startVirtualThread(() -> {
            sleeping.countDown();
            try {
                Thread.sleep(300); // its timer fires on the JDK's unparker thread, after close
                Thread.sleep(1);   // and once more: a resume after a resume
            } catch (InterruptedException e) {
                return;
            }
            finished.set(true);
        });
        assertTrue(sleeping.await(GUARD_S, TimeUnit.SECONDS));
        r.close();
        assertTrue(vt.join(Duration.ofSeconds(GUARD_S)), "the sleeping virtual thread was stranded by close");
        assertTrue(finished.get());
        CarrierPool pool = r.pool();
        assertTrue(pool.awaitExit(Duration.ofSeconds(GUARD_S)), "the carriers leave once the last live thread ends");
        assertEquals(0, pool.liveThreads());
        assertTrue(unparkersAlive(), "the JDK's VirtualThread-unparker survived");
    }

    @Test
    void close_names_the_threads_still_alive_after_its_grace() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        GpuReactor r = open(warnings);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Thread vt = r.threadFactory().newThread(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                // ends
            }
        });
        vt.setName("still-here");
        vt.start();
        assertTrue(started.await(GUARD_S, TimeUnit.SECONDS));
        r.close(); // returns after its grace, with the warning
        Warning w = warnings.stream().filter(x -> x.code() == ErrorCode.LiveAtClose).findFirst()
                .orElseThrow(() -> new AssertionError("no LiveAtClose warning: " + warnings));
        assertTrue(w.toString().contains("still-here"), w.toString());
        CarrierPool pool = r.pool();
        assertEquals(1, pool.liveThreads());
        assertFalse(pool.awaitExit(Duration.ofMillis(50)), "carriers must stay while a thread lives");
        release.countDown(); // its resume after close is not rejected
        assertTrue(vt.join(Duration.ofSeconds(GUARD_S)));
        assertTrue(pool.awaitExit(Duration.ofSeconds(GUARD_S)));
    }

    @Test
    void close_from_inside_a_reactor_thread_returns_and_the_thread_keeps_running() throws Exception {
        GpuReactor r = open(new CopyOnWriteArrayList<>());
        AtomicBoolean afterClose = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread vt = r.startVirtualThread(() -> {
            try {
                r.close();
                Thread.sleep(5); // parks and resumes after close
                afterClose.set(true);
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        assertTrue(vt.join(Duration.ofSeconds(GUARD_S)), "close from inside deadlocked");
        assertNull(failed.get());
        assertTrue(afterClose.get());
        assertTrue(r.carriers().orElseThrow().awaitExit(Duration.ofSeconds(GUARD_S)));
    }

    @Test
    void new_starts_after_close_are_rejected_with_a_coded_rejection() throws Exception {
        GpuReactor r = open(new CopyOnWriteArrayList<>());
        ThreadFactory before = r.threadFactory();
        Thread unstarted = before.newThread(() -> { });
        GpuExecutorService exec = r.newExecutor();
        r.close();
        assertTrue(r.carriers().orElseThrow().awaitExit(Duration.ofSeconds(GUARD_S)));
        // The reactor's own entries say Rejected (no wait was cut short), as MisuseTest pins; what was taken before rejects.
        assertEquals(ErrorCode.Rejected, assertThrows(ReactorException.class, () -> r.startVirtualThread(() -> { })).code());
        assertEquals(ErrorCode.Rejected, assertThrows(ReactorException.class, r::threadFactory).code());
        assertCoded(assertThrows(RejectedExecutionException.class, () -> before.newThread(() -> { })));
        assertCoded(assertThrows(RejectedExecutionException.class, unstarted::start));
        assertCoded(assertThrows(RejectedExecutionException.class, () -> exec.execute(() -> { })));
        assertTrue(exec.isShutdown());
        assertTrue(exec.isTerminated());
    }

    @Test
    void pending_waits_fail_at_close_while_their_joiners_run_on() throws Exception {
        GpuReactor r = open(new CopyOnWriteArrayList<>());
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofSeconds(30));
            SimStream.Signal sig = s.signal();
            GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
            AtomicReference<ErrorCode> seen = new AtomicReference<>();
            AtomicBoolean after = new AtomicBoolean();
            Thread joiner = r.startVirtualThread(() -> {
                try {
                    f.join();
                } catch (ReactorException e) {
                    seen.set(e.code());
                }
                LockSupport.parkNanos(1_000_000); // a timed park after close: resumed, not rejected
                after.set(true);
            });
            while (joiner.getState() != Thread.State.WAITING && joiner.isAlive()) Thread.onSpinWait();
            r.close();
            assertTrue(joiner.join(Duration.ofSeconds(GUARD_S)));
            assertEquals(ErrorCode.ShutDown, seen.get());
            assertTrue(after.get());
        }
    }

    @Test
    void a_thread_blocked_on_a_monitor_at_close_gets_it_and_the_jdk_unblocker_survives() throws Exception {
        GpuReactor r = open(new CopyOnWriteArrayList<>());
        Object monitor = new Object();
        AtomicBoolean entered = new AtomicBoolean();
        Thread vt;
        synchronized (monitor) {
            vt = r.startVirtualThread(() -> {
                synchronized (monitor) {
                    entered.set(true);
                }
            });
            while (vt.getState() != Thread.State.BLOCKED) Thread.onSpinWait();
            r.close();
        } // the JDK's VirtualThread-unblocker resumes vt through our pool
        assertTrue(vt.join(Duration.ofSeconds(GUARD_S)), "the blocked virtual thread was stranded");
        assertTrue(entered.get());
        // The unblocker still serves the default scheduler's virtual threads.
        Object other = new Object();
        Thread dflt;
        synchronized (other) {
            dflt = Thread.ofVirtual().start(() -> {
                synchronized (other) {
                    entered.set(false);
                }
            });
            while (dflt.getState() != Thread.State.BLOCKED) Thread.onSpinWait();
        }
        assertTrue(dflt.join(Duration.ofSeconds(GUARD_S)), "the JDK's unblocker died");
        assertFalse(entered.get());
    }

    @Test
    void an_executor_reports_shutdown_at_reactor_close_and_terminates_when_its_sleeping_task_ends()
            throws Exception {
        GpuReactor r = open(new CopyOnWriteArrayList<>());
        GpuExecutorService exec = r.newExecutor();
        CountDownLatch sleeping = new CountDownLatch(1);
        Future<String> task = exec.submit(() -> {
            sleeping.countDown();
            Thread.sleep(200);
            return "done";
        });
        assertTrue(sleeping.await(GUARD_S, TimeUnit.SECONDS));
        r.close();
        assertTrue(exec.isShutdown(), "the reactor closed: the executor is shut down");
        assertEquals("done", task.get(GUARD_S, TimeUnit.SECONDS));
        assertTrue(exec.awaitTermination(GUARD_S, TimeUnit.SECONDS));
        assertTrue(exec.isTerminated());
    }

    /**
     * The close refuses new threads from its first step: a factory taken before it refuses {@code newThread} as soon
     * as {@code isClosed()} reads true, not only once the carrier pool closes at the close's last step (an outside
     * probe: 5 of 40 closes made and ran a new thread after {@code isClosed()}, and {@code startVirtualThread}
     * refused at the same moment). Each round closes while a live thread keeps the close in its grace.
     */
    @Test
    void a_factory_taken_before_close_refuses_new_threads_from_the_close_s_first_step() throws Exception {
        int made = 0;
        for (int round = 0; round < 100; round++) {
            GpuReactor r = open(new CopyOnWriteArrayList<>());
            ThreadFactory before = r.threadFactory();
            CountDownLatch release = new CountDownLatch(1);
            before.newThread(() -> {
                try { release.await(); } catch (InterruptedException e) { throw new AssertionError(e); }
            }).start();
            Thread closer = Thread.ofPlatform().start(r::close); // in its grace until the live thread is released
            while (!r.isClosed()) Thread.onSpinWait();
            try {
                before.newThread(() -> { });
                made++;
            } catch (RejectedExecutionException e) {
                assertCoded(e);
            }
            release.countDown();
            closer.join();
        }
        assertEquals(0, made, "closes whose factory still made a thread after isClosed() read true");
    }

    /**
     * A thread made before the close and started after it runs while the pool still runs anything: the carriers
     * have not retired, and a start is admitted as a resume until they do (an outside probe: 37–60 of 200 such
     * starts were refused while the pool's other threads still waited). Here a live thread keeps the carriers
     * through the close's grace, so the start comes after the pool itself closed.
     */
    @Test
    void a_thread_made_before_close_and_started_after_it_runs_while_the_carriers_stay() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        GpuReactor r = open(warnings);
        ThreadFactory before = r.threadFactory();
        CountDownLatch release = new CountDownLatch(1);
        Thread live = before.newThread(() -> {
            try { release.await(); } catch (InterruptedException e) { throw new AssertionError(e); }
        });
        live.start();
        AtomicBoolean ran = new AtomicBoolean();
        Thread made = before.newThread(() -> ran.set(true));
        Thread tooLate = before.newThread(() -> { });
        r.close(); // returns after its grace: the live thread keeps the carriers
        assertTrue(warnings.stream().anyMatch(w -> w.code() == ErrorCode.LiveAtClose), warnings.toString());
        made.start(); // refused with the pool closed before the rule
        assertTrue(made.join(Duration.ofSeconds(GUARD_S)), "the late start never ran");
        assertTrue(ran.get());
        release.countDown();
        assertTrue(live.join(Duration.ofSeconds(GUARD_S)));
        assertTrue(r.carriers().orElseThrow().awaitExit(Duration.ofSeconds(GUARD_S)), "the carriers leave after both");
        assertCoded(assertThrows(RejectedExecutionException.class, tooLate::start, "after retirement a start is refused"));
    }

    /**
     * When close returns, none of the reactor's own platform threads is left: its carriers, their watch, its parkers
     * and the threads standing by for them, and its warnings' reporter (an outside probe: 6–14 of 150 closes left
     * such threads running for up to 23 ms, and a server that then closed its web application's class loader saw
     * one fail to load a class). Each round hosts waits on the reactor's threads and has a parker warn.
     */
    @Test
    void close_returns_once_the_reactors_own_threads_have_ended() throws Exception {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        for (int round = 0; round < 60; round++) {
            GpuReactor r = GpuReactor.builder().carriers(2).jmx(false).warnings(w -> { }).build();
            try (SimDevice dev = SimDevice.open(); GpuExecutorService exec = r.newExecutor()) {
                List<Future<Integer>> joins = new java.util.ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    SimStream s = dev.stream();
                    s.compute(Duration.ofMillis(1));
                    SimStream.Signal sig = s.signal();
                    GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
                    joins.add(exec.submit(() -> f.join()));
                }
                SimStream.Signal lost = dev.stream().signalLost(); // the parker warns WordNeverWritten: the reporter starts
                assertEquals(2, r.await(lost.descriptor(), lost.port(), () -> 2).join(Duration.ofSeconds(GUARD_S)));
                for (Future<Integer> j : joins) assertEquals(1, j.get(GUARD_S, TimeUnit.SECONDS));
            } finally {
                r.close();
            }
            List<String> left = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t) && t.getName().startsWith("gar-") && !t.getName().startsWith("gar-sim-"))
                    .map(t -> t.getName() + " " + t.getState()).toList();
            assertEquals(List.of(), left, "round " + round + ": the reactor's threads still alive after close returned");
        }
    }

    private static void assertCoded(RejectedExecutionException e) {
        assertTrue(e.getMessage() != null && e.getMessage().contains(ErrorCode.Rejected.name()), String.valueOf(e.getMessage()));
        assertFalse(e.getMessage().contains("wait"), "a refused task says no wait was cut short: " + e.getMessage());
    }

    private static boolean unparkersAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("VirtualThread-unparker"));
    }
}
