package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Stage isolation: {@link GpuFuture#toCompletableFuture()} gives each caller a stage of its own, so
 * no caller's {@code complete}, {@code obtrudeValue} or {@code cancel} changes what another caller,
 * {@code onComplete} or {@code get()} sees. The device is held on a gate until the caller has
 * tampered with its stage, so the wait's own outcome comes after.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a measurement
class StageIsolationTest {
    private static final long GUARD_S = 30;

    /** What a wait on a held device shows its users: its value is 42. */
    private static final class Rig implements AutoCloseable {
        final GpuReactor reactor = GpuReactor.builder().carriers(2).jmx(false).build();
        final SimDevice device = SimDevice.open();
        final CountDownLatch gate = new CountDownLatch(1);
        final GpuFuture<Integer> f;
        /** What an {@code onComplete} registered before the tampering saw: the value, or the failure. */
        final List<Object> seen = new CopyOnWriteArrayList<>();
        final CountDownLatch called = new CountDownLatch(1);

        Rig() {
            SimStream.Signal sig = device.stream().hold(gate).signal();
            f = reactor.await(sig.descriptor(), sig.port(), () -> 42);
            f.onComplete((v, t) -> {
                seen.add(t != null ? t : v);
                called.countDown();
            });
        }

        /** Lets the device finish and checks that every user but the tamperer sees 42. */
        void finishAndCheckEveryoneSees42(CompletableFuture<Integer> other) throws Exception {
            gate.countDown();
            assertEquals(42, f.get(GUARD_S, TimeUnit.SECONDS), "get()");
            assertEquals(Future.State.SUCCESS, f.state());
            assertFalse(f.isCancelled());
            assertTrue(called.await(GUARD_S, TimeUnit.SECONDS));
            assertEquals(List.of(42), seen, "onComplete");
            assertEquals(42, other.get(GUARD_S, TimeUnit.SECONDS), "another caller's stage");
            assertEquals(42, f.toCompletableFuture().get(GUARD_S, TimeUnit.SECONDS), "a stage asked for afterwards");
            CountDownLatch late = new CountDownLatch(1);
            List<Object> lateSaw = new CopyOnWriteArrayList<>();
            f.onComplete((v, t) -> {
                lateSaw.add(t != null ? t : v);
                late.countDown();
            });
            assertTrue(late.await(GUARD_S, TimeUnit.SECONDS));
            assertEquals(List.of(42), lateSaw, "an onComplete registered afterwards");
        }

        @Override
        public void close() {
            gate.countDown();
            device.close();
            reactor.close();
        }
    }

    @Test
    void each_call_returns_a_stage_of_its_own() throws Exception {
        try (Rig rig = new Rig()) {
            assertNotSame(rig.f.toCompletableFuture(), rig.f.toCompletableFuture());
        }
    }

    @Test
    void complete_on_a_callers_stage_changes_only_that_stage() throws Exception {
        try (Rig rig = new Rig()) {
            CompletableFuture<Integer> mine = rig.f.toCompletableFuture();
            CompletableFuture<Integer> other = rig.f.toCompletableFuture();
            assertTrue(mine.complete(-1));
            assertFalse(rig.f.isDone(), "the wait does not end with a caller's value");
            assertFalse(other.isDone(), "another caller's stage does not see it");
            rig.finishAndCheckEveryoneSees42(other);
            assertEquals(-1, mine.join(), "the caller's own stage keeps what it was given");
        }
    }

    @Test
    void obtrude_value_on_a_callers_stage_changes_only_that_stage() throws Exception {
        try (Rig rig = new Rig()) {
            CompletableFuture<Integer> mine = rig.f.toCompletableFuture();
            CompletableFuture<Integer> other = rig.f.toCompletableFuture();
            mine.obtrudeValue(-1); // while pending
            assertFalse(other.isDone());
            rig.finishAndCheckEveryoneSees42(other);
            CompletableFuture<Integer> after = rig.f.toCompletableFuture();
            assertEquals(42, after.join());
            after.obtrudeValue(-2); // once done
            assertEquals(42, rig.f.toCompletableFuture().join(), "a stage asked for later");
            assertEquals(42, other.join());
            assertEquals(42, rig.f.join());
        }
    }

    @Test
    void cancel_of_a_callers_stage_cancels_only_that_stage() throws Exception {
        try (Rig rig = new Rig()) {
            CompletableFuture<Integer> mine = rig.f.toCompletableFuture();
            CompletableFuture<Integer> other = rig.f.toCompletableFuture();
            assertTrue(mine.cancel(true));
            assertTrue(mine.isCancelled());
            assertFalse(rig.f.isCancelled(), "the wait is not cancelled by a caller's stage");
            assertFalse(rig.f.isDone());
            assertFalse(other.isDone());
            rig.finishAndCheckEveryoneSees42(other);
            assertThrows(CancellationException.class, mine::join, "the caller's own stage stays cancelled");
        }
    }
}
