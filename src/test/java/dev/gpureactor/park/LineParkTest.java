package dev.gpureactor.park;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The park contract, for every park this machine can run: the fallback always (in a spinning and a
 * non-spinning shape), the hardware park where the probe finds one (not on the 2-core VM this was
 * written on, which hides waitpkg and monitorx; the same tests then run it wherever it exists).
 *
 * <p>No timing is asserted. "Ends promptly" means: with a bound of a minute, the park ends (with
 * {@code ready} holding) well inside the 10 s hang guard; "ends by the bound" means it ends with
 * {@code ready} still false.
 */
class LineParkTest {
    static final Duration GUARD = Duration.ofSeconds(10);
    static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    static List<LinePark> parks() {
        List<LinePark> parks = new ArrayList<>();
        parks.add(FallbackPark.DEFAULT);
        parks.add(new FallbackPark(0, TimeUnit.MILLISECONDS.toNanos(1)));
        parks.add(new FallbackPark(MINUTE, TimeUnit.MILLISECONDS.toNanos(1))); // all spin
        WordWait.probe().wordWait().ifPresent(parks::add);
        return parks;
    }

    /** Parks that a store ends within one call: the hardware park, and a fallback still in its spin. */
    static boolean endsOnAStoreInOneCall(LinePark park) {
        return park instanceof WordWait || (park instanceof FallbackPark f && f.spinNanos() >= MINUTE);
    }

    static Predicate<CompletionLine> reached(Slot slot, long target) {
        return l -> l.word(slot) - target >= 0;
    }

    /** Runs {@code body} on a fresh platform thread (a parker is one) and returns its result. */
    static <T> T onPlatformThread(java.util.concurrent.Callable<T> body, AtomicReference<Thread> started) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().name("test-parker").start(() -> {
            try {
                f.complete(body.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        if (started != null) started.set(t);
        return f.get();
    }

    @ParameterizedTest
    @MethodSource("parks")
    void aStoreFromAnotherThreadToAnyWordEndsThePark(LinePark park) {
        assertTimeoutPreemptively(GUARD.multipliedBy(2), () -> {
            try (CompletionLine line = CompletionLine.allocate()) {
                for (int w = 0; w < CompletionLine.WORDS; w++) {
                    Slot slot = Slot.of(w);
                    long target = 10 + w;
                    Thread device = Thread.ofPlatform().start(() -> {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                        line.store(slot, target);
                    });
                    // As a parker does: park again after an early return, until ready holds.
                    int calls = assertTimeoutPreemptively(GUARD, () -> {
                        int n = 1;
                        while (!park.park(line, reached(slot, target), MINUTE)) n++;
                        return n;
                    }, () -> park.describe() + " did not end on a store to word " + slot.index());
                    device.join();
                    assertTrue(reached(slot, target).test(line));
                    if (endsOnAStoreInOneCall(park)) assertEquals(1, calls, park.describe() + ": one park, ended by the store");
                }
            }
        });
    }

    @ParameterizedTest
    @MethodSource("parks")
    void theBoundEndsAParkNobodyStoresInto(LinePark park) {
        try (CompletionLine line = CompletionLine.allocate()) {
            Predicate<CompletionLine> never = reached(Slot.of(3), 1);
            boolean r = assertTimeoutPreemptively(GUARD, () -> park.park(line, never, TimeUnit.MILLISECONDS.toNanos(30)));
            assertFalse(r);
            assertFalse(never.test(line));
            assertFalse(assertTimeoutPreemptively(GUARD, () -> park.park(line, never, Duration.ofMillis(2))));
        }
    }

    @ParameterizedTest
    @MethodSource("parks")
    void aStoreToAnotherWordEndsOrLeavesItToTheBoundButNeverLies(LinePark park) {
        try (CompletionLine line = CompletionLine.allocate()) {
            Predicate<CompletionLine> watched = reached(Slot.of(0), 1);
            Thread device = Thread.ofPlatform().start(() -> {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                line.store(Slot.of(7), 42);
            });
            boolean r = assertTimeoutPreemptively(GUARD, () -> park.park(line, watched, TimeUnit.MILLISECONDS.toNanos(50)));
            assertTimeoutPreemptively(GUARD, () -> device.join());
            assertFalse(r, "ready never held");
        }
    }

    @ParameterizedTest
    @MethodSource("parks")
    void aReadyLineReturnsAtOnceWhateverTheBound(LinePark park) {
        try (CompletionLine line = CompletionLine.allocate()) {
            line.store(Slot.of(2), 5);
            for (long bound : new long[] {Long.MIN_VALUE, -1, 0, 1, MINUTE, Long.MAX_VALUE}) {
                assertTrue(assertTimeoutPreemptively(GUARD, () -> park.park(line, reached(Slot.of(2), 5), bound)), "bound " + bound);
            }
            assertTrue(park.park(line, reached(Slot.of(2), 5), Duration.ofSeconds(Long.MAX_VALUE)));
            assertFalse(park.park(line, reached(Slot.of(2), 6), 0), "a zero bound only checks");
            assertFalse(park.park(line, reached(Slot.of(2), 6), Duration.ofSeconds(Long.MIN_VALUE)), "a negative bound only checks");
        }
    }

    @ParameterizedTest
    @MethodSource("parks")
    void aParkerOnAnotherThreadSeesWhatTheDeviceWroteBeforeItsStore(LinePark park) throws Exception {
        // device: payload (plain) -> word (release); parker: word (acquire) -> payload visible.
        try (CompletionLine line = CompletionLine.allocate()) {
            int[] payload = new int[1];
            Thread device = Thread.ofPlatform().start(() -> {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                payload[0] = 1234;
                line.store(Slot.of(1), 1);
            });
            int seen = assertTimeoutPreemptively(GUARD, () -> onPlatformThread(() -> {
                while (!park.park(line, reached(Slot.of(1), 1), MINUTE)) {
                    // returned early: park again, as a parker does
                }
                return payload[0];
            }, null));
            device.join();
            assertEquals(1234, seen);
        }
    }

    @Test
    void unparkEndsAFallbackParkEarly() throws Exception {
        for (FallbackPark park : List.of(new FallbackPark(0, MINUTE), new FallbackPark(TimeUnit.MILLISECONDS.toNanos(1), MINUTE))) {
            try (CompletionLine line = CompletionLine.allocate()) {
                AtomicReference<Thread> parker = new AtomicReference<>();
                CompletableFuture<Boolean> result = CompletableFuture.supplyAsync(() -> {
                    try {
                        return onPlatformThread(() -> park.park(line, reached(Slot.of(0), 1), MINUTE), parker);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                assertTimeoutPreemptively(GUARD, () -> {
                    // Wait until it sleeps in its (minute-long) slice, then unpark it.
                    while (parker.get() == null || parker.get().getState() != Thread.State.TIMED_WAITING) Thread.onSpinWait();
                    LockSupport.unpark(parker.get());
                    assertFalse(result.get(), park.describe() + ": unparked, and ready does not hold");
                });
            }
        }
    }

    @Test
    void anUnparkDuringTheSpinEndsTheParkWhenTheSpinDoes() throws Exception {
        try (CompletionLine line = CompletionLine.allocate()) {
            FallbackPark park = new FallbackPark(TimeUnit.MILLISECONDS.toNanos(200), MINUTE);
            AtomicReference<Thread> parker = new AtomicReference<>();
            CompletableFuture<Boolean> result = CompletableFuture.supplyAsync(() -> {
                try {
                    return onPlatformThread(() -> park.park(line, reached(Slot.of(0), 1), MINUTE), parker);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            assertTimeoutPreemptively(GUARD, () -> {
                while (parker.get() == null) Thread.onSpinWait();
                LockSupport.unpark(parker.get());
                assertFalse(result.get());
            });
        }
    }

    @Test
    void anUnparkBeforeTheSliceEndsItToo() throws Exception {
        // The permit of an unpark that came during the spin (or before the park) makes the first slice return.
        try (CompletionLine line = CompletionLine.allocate()) {
            FallbackPark park = new FallbackPark(0, MINUTE);
            boolean r = assertTimeoutPreemptively(GUARD, () -> onPlatformThread(() -> {
                LockSupport.unpark(Thread.currentThread());
                return park.park(line, reached(Slot.of(0), 1), MINUTE);
            }, null));
            assertFalse(r);
        }
    }

    @Test
    void anInterruptEndsAFallbackParkAndStaysSet() throws Exception {
        try (CompletionLine line = CompletionLine.allocate()) {
            FallbackPark park = new FallbackPark(0, MINUTE);
            boolean[] stillInterrupted = new boolean[1];
            boolean r = assertTimeoutPreemptively(GUARD, () -> onPlatformThread(() -> {
                Thread.currentThread().interrupt();
                boolean out = park.park(line, reached(Slot.of(0), 1), MINUTE);
                stillInterrupted[0] = Thread.currentThread().isInterrupted();
                return out;
            }, null));
            assertFalse(r);
            assertTrue(stillInterrupted[0]);
        }
    }

    @Test
    void fallbackValuesAreChecked() {
        assertEquals(ErrorCode.InvalidArgument, assertThrows(ReactorException.class, () -> new FallbackPark(-1, 1)).code());
        assertEquals(ErrorCode.InvalidArgument, assertThrows(ReactorException.class, () -> new FallbackPark(0, 0)).code());
        assertEquals(new FallbackPark(20_000, 50_000), FallbackPark.DEFAULT);
        assertTrue(FallbackPark.DEFAULT.describe().contains("fallback"));
    }

    @Test
    void everyParkRefusesAClosedLine() {
        CompletionLine line = CompletionLine.allocate();
        line.close();
        for (LinePark park : parks()) {
            ReactorException e = assertThrows(ReactorException.class, () -> park.park(line, l -> false, 1_000));
            assertEquals(ErrorCode.LineClosed, e.code(), park.describe());
        }
    }
}
