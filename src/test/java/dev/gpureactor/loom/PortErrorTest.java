package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A port whose call throws is the port's failure, whatever it throws (an {@code Error}, a stack
 * overflow included): its own wait fails coded {@code Backend}, naming the call, with the throwable
 * as the cause, and the parker lives on, so a healthy wait on another line of the same parker
 * completes.
 */
class PortErrorTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    /** A port that is never done and whose query throws what {@code thrown} makes, a checked throwable undeclared too. */
    private static CompletionPort throwing(Supplier<Throwable> thrown) {
        return new CompletionPort() {
            @Override public boolean query() { throw sneaky(thrown.get()); }
            @Override public void block() { }
            @Override public void arm() { }
            @Override public boolean park(long boundNanos) { return false; }
        };
    }

    /** Throws {@code t} whatever it is, as Lombok's {@code @SneakyThrows} or a Kotlin or Scala port does. */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** An exception whose message and text throw in turn. */
    static final class OddMessage extends RuntimeException {
        private static final long serialVersionUID = 1L;

        @Override public String getMessage() { throw new IllegalStateException("getMessage threw"); }
        @Override public String toString() { throw new IllegalStateException("toString threw"); }
    }

    /**
     * Joins on a virtual thread, which waits for the parker (a platform joiner would run the plan
     * itself and query the port on its own thread): the value, or what the join threw.
     */
    static Object joinOnVirtual(GpuFuture<?> f) throws InterruptedException {
        AtomicReference<Object> out = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                out.set(f.join(HANG_GUARD));
            } catch (Throwable x) {
                out.set(x);
            }
        });
        assertTrue(t.join(HANG_GUARD.plusSeconds(5)), "the join never returned");
        return out.get();
    }

    @Test
    void whatever_a_ports_query_throws_fails_only_its_own_wait_and_the_parker_lives_on() throws Exception {
        // Checked ones thrown undeclared too: before, an IOException from query ended the parker thread (every wait
        // of its lines failed ParkerDied, and a woken joiner it had captured was never resumed), and an exception whose
        // getMessage threw failed every wait of the parker.
        List<Supplier<Throwable>> thrown = List.of(() -> new AssertionError("a bug in the port"),
                () -> new StackOverflowError("the port recursed"), () -> new IllegalStateException("the port's own"),
                () -> new java.io.IOException("undeclared"), () -> new InterruptedException("undeclared"),
                () -> new Throwable("a bare throwable"), OddMessage::new);
        for (Supplier<Throwable> t : thrown) {
            ReactorException e = failsAloneOnItsParker(throwing(t));
            assertEquals(t.get().getClass(), e.getCause().getCause().getClass(), "the shared failure carries what the port threw");
            assertTrue(e.getMessage().contains("port query failed"), e.getMessage());
            if (t.get() instanceof OddMessage) assertTrue(e.getMessage().contains("getMessage() threw"), e.getMessage());
        }
    }

    /**
     * Awaits {@code port}'s wait on a line of its own beside a held healthy wait on another line of the same parker;
     * asserts that the port's wait fails coded {@code Backend} while the healthy one, once released, completes and no
     * parker died; returns the port's wait's failure.
     */
    private static ReactorException failsAloneOnItsParker(CompletionPort port) throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(2).build();
             SimDevice dev = SimDevice.open();
             CompletionLine other = CompletionLine.allocate()) {
            CountDownLatch gate = new CountDownLatch(1);
            SimStream s = dev.stream().hold(gate);
            SimStream.Signal healthy = s.signal();
            GpuFuture<String> good = r.await(healthy.descriptor(), healthy.port(), () -> "good");
            GpuFuture<String> bad = r.await(new MemoryDescriptor(other, Slot.of(0), 1), port, () -> "bad");
            assertSame(r.parkerOf(s.line()), r.parkerOf(other), "both lines on one parker, so its death would fail both");

            ReactorException e = assertInstanceOf(ReactorException.class, joinOnVirtual(bad));
            assertEquals(ErrorCode.Backend, e.code(), e.getMessage());
            gate.countDown();
            assertEquals("good", joinOnVirtual(good), "the healthy wait on the same parker completes");
            assertEquals(0, r.stats().parkersDied(), "no parker died for the port's throw");
            return e;
        }
    }

    @Test
    void a_line_over_memory_confined_to_one_thread_fails_its_own_waits_coded_and_the_parker_lives_on() throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(2).build();
             SimDevice dev = SimDevice.open();
             java.lang.foreign.Arena confined = java.lang.foreign.Arena.ofConfined()) {
            CompletionLine mine = CompletionLine.wrap(confined.allocate(64, 64), "confined", () -> { });
            CountDownLatch gate = new CountDownLatch(1);
            SimStream s = dev.stream().hold(gate);
            SimStream.Signal healthy = s.signal();
            GpuFuture<String> good = r.await(healthy.descriptor(), healthy.port(), () -> "good");
            CompletionPort never = throwing(() -> new AssertionError("never queried: the line is dropped first"));
            GpuFuture<String> bad = r.await(new MemoryDescriptor(mine, Slot.of(0), 1), never, () -> "bad");

            ReactorException e = assertInstanceOf(ReactorException.class, joinOnVirtual(bad));
            assertEquals(ErrorCode.InvalidArgument, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("Arena.ofShared()"), e.getMessage());
            gate.countDown();
            assertEquals("good", joinOnVirtual(good), "the healthy line's wait on the same parker completes");
            assertEquals(0, r.stats().parkersDied(), "no parker died (before: one death per turn, a core spent)");
        }
    }

    @Test
    void await_from_a_thread_that_cannot_read_the_lines_memory_fails_that_wait_coded_and_does_not_throw() throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build()) {
            CompletionPort never = throwing(() -> new AssertionError("never queried: the wait fails at its start"));
            // Confined to a thread that is not the caller: the start's own read of the word throws WrongThreadException.
            // (Memory whose arena closed reads as a closed line: LineClosed, PortErrorTest's neighbours.)
            java.util.concurrent.atomic.AtomicReference<CompletionLine> theirs = new java.util.concurrent.atomic.AtomicReference<>();
            CountDownLatch made = new CountDownLatch(1), done = new CountDownLatch(1);
            Thread owner = Thread.ofPlatform().start(() -> {
                try (java.lang.foreign.Arena confined = java.lang.foreign.Arena.ofConfined()) {
                    theirs.set(CompletionLine.wrap(confined.allocate(64, 64), "theirs", () -> { }));
                    made.countDown();
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            made.await();
            try {
                GpuFuture<String> f = r.await(new MemoryDescriptor(theirs.get(), Slot.of(0), 1), never, () -> "never");
                ReactorException e = assertInstanceOf(ReactorException.class, joinOnVirtual(f));
                assertEquals(ErrorCode.InvalidArgument, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("Arena.ofShared()"), e.getMessage());
                assertTrue(e.getMessage().contains("theirs"), e.getMessage());
            } finally {
                done.countDown();
                owner.join();
            }
            assertEquals(0, r.stats().registrations(), "nothing was registered");
        }
    }

    @Test
    void a_port_whose_stores_into_line_throws_fails_only_its_own_wait_named_and_the_parker_lives_on() throws Exception {
        for (Supplier<Throwable> t : List.<Supplier<Throwable>>of(() -> new IllegalStateException("the port's own"),
                () -> new java.io.IOException("undeclared"))) {
            CompletionPort done = new CompletionPort() { // done by its query; asked whether it writes the word, it throws
                @Override public boolean query() { return true; }
                @Override public boolean storesIntoLine() { throw sneaky(t.get()); }
                @Override public void block() { }
                @Override public void arm() { }
                @Override public boolean park(long boundNanos) { return false; }
            };
            // Before: the backstop asked it outside its guard, and every wait of the parker failed ParkerDied.
            ReactorException e = failsAloneOnItsParker(done);
            assertTrue(e.getMessage().contains("port storesIntoLine failed"), e.getMessage());
        }
    }

    @Test
    void a_platform_joiner_running_the_plan_codes_a_checked_throwable_its_port_throws_undeclared() throws Exception {
        // Before, an InterruptedException from query read as the joiner's own interrupt (Interrupted, its flag set,
        // though nobody interrupted it), and the wait went on querying at ~180,000 a second on a carrier until the close.
        for (String plan : List.of("poll", "flag:park_us=100,backstop_us=100000")) {
            try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).plan(plan).build();
                 CompletionLine line = CompletionLine.allocate()) {
                CompletionPort port = new CompletionPort() {
                    @Override public boolean query() { throw sneaky(new InterruptedException("undeclared")); }
                    @Override public void block() { }
                    @Override public void arm() { }
                    @Override public boolean park(long boundNanos) { return false; }
                };
                GpuFuture<String> f = r.await(new MemoryDescriptor(line, Slot.of(0), 1), port, () -> "never");
                java.util.concurrent.CompletableFuture<Object> joined = GpuFutureConformanceTest.on(GpuFutureConformanceTest.Caller.PLATFORM, () -> {
                    try {
                        return f.join();
                    } finally {
                        if (Thread.currentThread().isInterrupted()) throw new AssertionError("the joiner's flag was set: nobody interrupted it");
                    }
                });
                java.util.concurrent.ExecutionException ee = assertThrows(java.util.concurrent.ExecutionException.class,
                        () -> joined.get(HANG_GUARD.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), plan);
                ReactorException e = assertInstanceOf(ReactorException.class, ee.getCause(), plan);
                assertEquals(ErrorCode.Backend, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("port query failed"), plan + ": " + e.getMessage());
                assertInstanceOf(InterruptedException.class, e.getCause().getCause(), "the port's own throwable is the cause");
            }
        }
    }

    @Test
    void a_platform_joiner_running_the_plan_names_the_port_call_that_threw() throws Exception {
        // A platform joiner runs the plan itself (flag: query, arm, then parks through the port).
        record Case(String call, String plan) {}
        for (Case c : List.of(new Case("park", "flag:park_us=100,backstop_us=100000"), new Case("arm", "flag:park_us=100,backstop_us=100000"),
                new Case("block", "block"), new Case("query", "poll"))) {
            try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).plan(c.plan()).build();
                 CompletionLine line = CompletionLine.allocate()) {
                CompletionPort port = new CompletionPort() {
                    private int queries;
                    @Override public boolean query() {
                        if (c.call().equals("query") && ++queries > 1) throw new IllegalStateException("from query");
                        return false;
                    }
                    @Override public void block() { if (c.call().equals("block")) throw new IllegalStateException("from block"); }
                    @Override public void arm() { if (c.call().equals("arm")) throw new IllegalStateException("from arm"); }
                    @Override public boolean park(long boundNanos) {
                        if (c.call().equals("park")) throw new IllegalStateException("from park");
                        return false;
                    }
                };
                GpuFuture<String> f = r.await(new MemoryDescriptor(line, Slot.of(0), 1), port, () -> "never");
                // Untimed, on a platform thread: that joiner runs the plan (one with a limit leaves it to the parker).
                java.util.concurrent.CompletableFuture<String> joined = GpuFutureConformanceTest.on(GpuFutureConformanceTest.Caller.PLATFORM, f::join);
                java.util.concurrent.ExecutionException ee = assertThrows(java.util.concurrent.ExecutionException.class,
                        () -> joined.get(HANG_GUARD.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), c.call());
                ReactorException e = assertInstanceOf(ReactorException.class, ee.getCause(), c.call());
                assertEquals(ErrorCode.Backend, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("port " + c.call() + " failed"), c.call() + ": " + e.getMessage());
                assertEquals("from " + c.call(), e.getCause().getCause().getMessage(), "the port's own exception is the cause");
            }
        }
    }
}
