package dev.gpureactor.host;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

class WatcherTest {
    private static void awaitEmpty(Watcher w) throws InterruptedException {
        for (int i = 0; i < 2000 && w.registrations() != 0; i++) Thread.sleep(5);
    }

    @Test
    void completes_each_watch_when_its_word_is_reached_and_drops_the_registration() throws Exception {
        try (Watcher w = Watcher.start(); SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            a.compute(Duration.ofMillis(2));
            b.compute(Duration.ofMillis(4));
            SimStream.Signal sa = a.signal(), sb = b.signal();
            CompletableFuture<Void> fa = w.watch(sa.descriptor(), sa.port());
            CompletableFuture<Void> fb = w.watch(sb.descriptor(), sb.port());
            CompletableFuture.allOf(fa, fb).get(60, TimeUnit.SECONDS);
            assertTrue(sa.descriptor().isComplete());
            assertTrue(sb.descriptor().isComplete());
            awaitEmpty(w);
            assertEquals(0, w.registrations());
        }
    }

    @Test
    void a_close_from_a_completion_callback_on_the_watcher_thread_does_not_wait_for_itself() throws Exception {
        try (SimDevice dev = SimDevice.open()) {
            Watcher w = Watcher.start();
            SimStream s = dev.stream(), never = dev.stream();
            java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
            s.hold(gate); // completes only after the callback is attached: so it runs on the watcher thread
            never.hold(new java.util.concurrent.CountDownLatch(1));
            SimStream.Signal sig = s.signal(), pending = never.signal();
            CompletableFuture<Void> other = w.watch(pending.descriptor(), pending.port());
            CompletableFuture<Long> closedIn = w.watch(sig.descriptor(), sig.port()).thenApply(x -> {
                long t0 = System.nanoTime();
                w.close(); // on the watcher thread: its own join would wait its full 5 s bound
                return System.nanoTime() - t0;
            });
            gate.countDown();
            long nanos = closedIn.get(60, TimeUnit.SECONDS);
            assertTrue(nanos < TimeUnit.SECONDS.toNanos(4), "the close waited for its own thread: " + nanos / 1_000_000 + " ms");
            ExecutionException e = assertThrows(ExecutionException.class, () -> other.get(60, TimeUnit.SECONDS));
            assertEquals(ErrorCode.ShutDown, assertInstanceOf(ReactorException.class, e.getCause()).code());
        }
    }

    @Test
    void a_dropped_watch_is_removed() throws Exception {
        try (Watcher w = Watcher.start(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofSeconds(30));
            SimStream.Signal sig = s.signal();
            CompletableFuture<Void> f = w.watch(sig.descriptor(), sig.port());
            assertEquals(1, w.registrations());
            f.cancel(false);
            awaitEmpty(w);
            assertEquals(0, w.registrations());
        }
    }

    @Test
    void a_failed_stream_fails_its_watch_with_the_port_error() throws Exception {
        try (Watcher w = new Watcher(Duration.ofMillis(1).dividedBy(10), Duration.ofMillis(1), x -> { });
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofMillis(1)).fail("injected");
            SimStream.Signal sig = s.signal();
            CompletableFuture<Void> f = w.watch(sig.descriptor(), sig.port());
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
            assertEquals(ErrorCode.Backend, assertInstanceOf(ReactorException.class, e.getCause()).code());
        }
    }

    @Test
    void a_lost_word_completes_by_the_authority_with_a_coded_warning() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        try (Watcher w = new Watcher(Duration.ofMillis(1).dividedBy(10), Duration.ofMillis(1), warnings::add);
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            SimStream.Signal sig = s.signalLost();
            w.watch(sig.descriptor(), sig.port()).get(60, TimeUnit.SECONDS);
            assertFalse(sig.descriptor().isComplete());
            assertEquals(ErrorCode.WordNeverWritten, warnings.getFirst().code());
        }
    }

    /** A port whose query sleeps 3 ms before it says pending: a synchronize where a status query belongs. */
    record BlockingPort(MemoryDescriptor d) implements CompletionPort {
        @Override public boolean query() {
            long end = System.nanoTime() + 3_000_000;
            for (long left; (left = end - System.nanoTime()) > 0; ) LockSupport.parkNanos(left); // a park may end early
            return false;
        }
        @Override public void block() { throw new UnsupportedOperationException(); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    }

    @Test
    void a_port_whose_query_blocks_is_warned_SlowPort_once_and_its_watch_stays_pending() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        try (Watcher w = new Watcher(Duration.ofMillis(1).dividedBy(10), Duration.ofMillis(1), warnings::add);
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.hold(new CountDownLatch(1)); // the store never comes: only the port is asked
            MemoryDescriptor d = s.signal().descriptor();
            CompletableFuture<Void> f = w.watch(d, new BlockingPort(d));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (warnings.stream().noneMatch(x -> x.code() == ErrorCode.SlowPort) && System.nanoTime() < end) Thread.sleep(1);
            Thread.sleep(50); // more slow rounds: still one warning
            List<Warning> slow = warnings.stream().filter(x -> x.code() == ErrorCode.SlowPort).toList();
            assertEquals(1, slow.size(), warnings.toString());
            assertEquals(BlockingPort.class.getName(), slow.getFirst().args().get(0));
            assertEquals("watcher", slow.getFirst().args().get(4));
            assertFalse(f.isDone());
        }
    }

    @Test
    void a_throwing_callback_never_kills_the_watcher() throws Exception {
        try (Watcher w = Watcher.start(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            SimStream.Signal first = s.signal();
            CompletableFuture<Void> f1 = w.watch(first.descriptor(), first.port());
            CompletableFuture<Object> boom = f1.thenApply(v -> { throw new IllegalStateException("callback bug"); });
            ExecutionException e = assertThrows(ExecutionException.class, () -> boom.get(60, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            s.compute(Duration.ofMillis(1));
            SimStream.Signal second = s.signal();
            w.watch(second.descriptor(), second.port()).get(60, TimeUnit.SECONDS); // still watching
        }
    }

    @Test
    void closing_fails_pending_watches_and_refuses_new_ones() throws Exception {
        SimDevice dev = SimDevice.open();
        SimStream s = dev.stream();
        s.compute(Duration.ofSeconds(30));
        SimStream.Signal sig = s.signal();
        Watcher w = Watcher.start();
        CompletableFuture<Void> f = w.watch(sig.descriptor(), sig.port());
        w.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertEquals(ErrorCode.ShutDown, assertInstanceOf(ReactorException.class, e.getCause()).code());
        assertTrue(w.watch(sig.descriptor(), sig.port()).isCompletedExceptionally());
        dev.close();
    }

    /** A watch racing a close is always completed (a check-then-add leaves some pending for ever). */
    @Test
    void a_watch_racing_close_is_never_lost() throws Exception {
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofSeconds(60));
            SimStream.Signal sig = s.signal();
            int lost = 0;
            for (int i = 0; i < 2_000; i++) {
                Watcher w = new Watcher(Duration.ofMillis(1), Duration.ofMillis(1), x -> { });
                java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.atomic.AtomicReference<CompletableFuture<Void>> f = new java.util.concurrent.atomic.AtomicReference<>();
                Thread watcher = Thread.ofPlatform().start(() -> {
                    awaitQuietly(go);
                    f.set(w.watch(sig.descriptor(), sig.port()));
                });
                go.countDown();
                w.close();
                watcher.join();
                try {
                    f.get().get(5, TimeUnit.SECONDS);
                    fail("a watch on a stream that stands still completed");
                } catch (ExecutionException e) {
                    assertEquals(ErrorCode.ShutDown, assertInstanceOf(ReactorException.class, e.getCause()).code());
                } catch (java.util.concurrent.TimeoutException e) {
                    lost++;
                }
            }
            assertEquals(0, lost, "watches left pending by a close");
        }
    }

    /** The Watcher path: an Error from a port fails that watch only; the watcher lives on and later watches complete. */
    @Test
    void any_throwable_from_a_port_fails_that_watch_only_and_the_watcher_goes_on() throws Exception {
        try (Watcher w = new Watcher(Duration.ofMillis(1).dividedBy(10), Duration.ofMillis(1), x -> { });
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofSeconds(60));
            SimStream.Signal held = s.signal();
            // An exception whose getMessage throws too: before, its watch stayed pending for good while the watcher
            // warned thousands of times a second, and only the watcher's close ended it.
            RuntimeException oddMessage = new RuntimeException() {
                @Override public String getMessage() { throw new IllegalStateException("getMessage threw"); }
            };
            for (Throwable boom : List.of(new AssertionError("port bug"), oddMessage)) {
                dev.gpureactor.core.CompletionPort throwing = new dev.gpureactor.core.CompletionPort() {
                    @Override public boolean query() {
                        if (boom instanceof Error e) throw e;
                        throw (RuntimeException) boom;
                    }
                    @Override public void block() { }
                    @Override public void arm() { }
                    @Override public boolean park(long boundNanos) { return false; }
                };
                CompletableFuture<Void> bad = w.watch(held.descriptor(), throwing);
                ExecutionException e = assertThrows(ExecutionException.class, () -> bad.get(60, TimeUnit.SECONDS));
                ReactorException coded = assertInstanceOf(ReactorException.class, e.getCause());
                assertEquals(ErrorCode.Backend, coded.code());
                assertSame(boom, coded.getCause(), "the coded error carries the port's throwable");
            }
            SimStream other = dev.stream();
            SimStream.Signal next = other.signal();
            w.watch(next.descriptor(), next.port()).get(60, TimeUnit.SECONDS); // still watching
        }
    }

    /** A store landing between the watcher's word read and its query raises no false WordNeverWritten. */
    @Test
    void a_store_between_the_word_read_and_the_query_is_no_lost_word() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        try (Watcher w = new Watcher(Duration.ofMillis(1).dividedBy(10), Duration.ofMillis(1), warnings::add);
             dev.gpureactor.core.CompletionLine line = dev.gpureactor.core.CompletionLine.allocate()) {
            dev.gpureactor.core.MemoryDescriptor d = new dev.gpureactor.core.MemoryDescriptor(line, dev.gpureactor.core.Slot.of(0), 1);
            dev.gpureactor.core.CompletionPort storesThenDone = new dev.gpureactor.core.CompletionPort() {
                @Override public boolean query() {
                    line.store(d.slot(), 1); // the store lands after the watcher read the word short
                    return true;
                }
                @Override public void block() { }
                @Override public void arm() { }
                @Override public boolean park(long boundNanos) { return false; }
            };
            w.watch(d, storesThenDone).get(60, TimeUnit.SECONDS);
            assertTrue(d.isComplete());
            assertEquals(List.of(), warnings, "the word was written: no WordNeverWritten");
        }
    }

    private static void awaitQuietly(java.util.concurrent.CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void bad_arguments_are_refused_with_codes() {
        assertThrows(NullPointerException.class, () -> new Watcher(null, Duration.ofMillis(1), x -> { }));
        assertEquals(ErrorCode.InvalidArgument,
                assertThrows(ReactorException.class, () -> new Watcher(Duration.ZERO, Duration.ofMillis(1), x -> { })).code());
        assertEquals(ErrorCode.InvalidArgument,
                assertThrows(ReactorException.class, () -> new Watcher(Duration.ofMillis(2), Duration.ofMillis(1), x -> { })).code());
    }
}
