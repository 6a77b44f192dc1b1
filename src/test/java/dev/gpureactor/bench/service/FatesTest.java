package dev.gpureactor.bench.service;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fates: assigned by request id alone (1 in 40, timeout, cancel and interrupt in turn), the client
 * taking only the fate's word or the payload, each fate having the contract's outcome in every
 * mode, and a wait that breaks the contract counted as a wrong answer.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FatesTest {
    @Test
    void one_request_in_40_has_a_fate_fixed_by_its_id_in_turn() {
        Map<Fate, Integer> n = new EnumMap<>(Fate.class);
        Fates a = new Fates(true, new Ledger(10)), b = new Fates(true, new Ledger(10_000));
        for (long id = 0; id < 1200; id++) {
            n.merge(Fate.of(id, true), 1, Integer::sum);
            assertEquals(a.of(id), b.of(id), "every cell (every mode) gives request " + id + " the same fate");
            assertEquals(Fate.NONE, Fate.of(id, false), "no fates when they are off");
        }
        assertEquals(Map.of(Fate.NONE, 1170, Fate.TIMEOUT, 10, Fate.CANCEL, 10, Fate.INTERRUPT, 10), n);
        assertEquals(Fate.NONE, Fate.of(0, true));
        assertEquals(Fate.NONE, Fate.of(38, true));
        assertEquals(Fate.TIMEOUT, Fate.of(39, true));
        assertEquals(Fate.NONE, Fate.of(40, true));
        assertEquals(Fate.CANCEL, Fate.of(79, true));
        assertEquals(Fate.INTERRUPT, Fate.of(119, true));
        assertEquals(Fate.TIMEOUT, Fate.of(159, true));
        assertEquals(30, a.count(1200).fated());
    }

    @Test
    void the_client_takes_the_fates_word_or_the_payload_and_nothing_else() {
        long e = Job.expected(39);
        assertTrue(LoadClient.right(39, Fate.TIMEOUT, "39 timeout\n"));
        assertTrue(LoadClient.right(39, Fate.TIMEOUT, "39 " + e + "\n"), "the store came before the timeout");
        assertFalse(LoadClient.right(39, Fate.TIMEOUT, "39 cancelled\n"), "another fate's word");
        assertFalse(LoadClient.right(39, Fate.TIMEOUT, "39 " + (e + 1) + "\n"), "a wrong payload");
        assertFalse(LoadClient.right(39, Fate.TIMEOUT, "38 timeout\n"), "another request's id");
        assertFalse(LoadClient.right(40, Fate.NONE, "40 timeout\n"), "a request without a fate must get its payload");
        assertTrue(LoadClient.right(40, Fate.NONE, "40 " + Job.expected(40) + "\n"));
        assertTrue(LoadClient.right(119, Fate.INTERRUPT, "119 interrupted\n"));
        assertTrue(LoadClient.right(79, Fate.CANCEL, "79 cancelled\n"));
    }

    /** A job whose store comes 50 ms after its launch: far past the 300 µs timeout and the 100 µs cancel or interrupt. */
    private static Job slowJob(SimStream stream, long id) {
        Job job = new Job(id);
        stream.compute(Duration.ofMillis(50), job::kernel);
        stream.compute(Duration.ZERO, job::stamp);
        job.signal = stream.signal();
        return job;
    }

    @ParameterizedTest
    @ValueSource(strings = {"reactor", "watcher:interval=25us", "sleep1"})
    void each_fate_has_the_contracts_outcome_and_the_waits_left_pending_complete_right(String modeText) throws Exception {
        Ledger ledger = new Ledger(1000);
        Fates fates = new Fates(true, ledger);
        try (SimDevice device = SimDevice.open(); Waiting waiting = Waiting.open(Mode.parse(modeText), Mode.BuilderHook.NONE)) {
            SimStream stream = device.stream();
            waiting.cellStarts();
            for (long id : new long[] {39, 79, 119}) {
                Job job = slowJob(stream, id);
                Fate fate = fates.of(id);
                Object[] out = waiting.executor().submit(() -> {
                    Fates.Played p = fates.play(fate, waiting, job);
                    return new Object[] {p, Thread.currentThread().isInterrupted()};
                }).get(10, TimeUnit.SECONDS);
                assertEquals(fate, ((Fates.Played) out[0]).met(), modeText + ": request " + id + " met its fate");
                assertFalse((Boolean) out[1], modeText + ": the handler answers with no interrupt pending");
            }
            fates.settle(Duration.ofSeconds(10));
            Fates.Counts c = fates.count(120);
            assertEquals(new Fates.Counts(3, 1, 1, 1, 0, 2, 0, ""), c, modeText + ": the timed-out and the interrupted wait completed later, right");
            assertEquals(0, ledger.wrong.sum());
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (waiting.registrations() != 0 && System.nanoTime() < end) Thread.sleep(5);
            assertEquals(0, waiting.registrations(), modeText + ": the cancelled wait and the ones left pending settled");
            waiting.cellEnds();
        }
    }

    /** A timed-out get that cancels the wait: a timeout must leave it pending. */
    private static final class CancelsOnTimeout extends CompletableFuture<Long> {
        @Override
        public Long get(long timeout, TimeUnit unit) throws TimeoutException {
            cancel(false);
            throw new TimeoutException();
        }
    }

    /** A cancel that always answers true: a second cancel must answer false. */
    private static final class AlwaysCancels extends CompletableFuture<Long> {
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            super.cancel(mayInterruptIfRunning);
            return true;
        }
    }

    /** An interrupted get that cancels the wait: an interrupt must end only the caller's wait. */
    private static final class CancelsOnInterrupt extends CompletableFuture<Long> {
        @Override
        public Long get() throws InterruptedException, ExecutionException {
            try {
                return super.get();
            } catch (InterruptedException e) {
                cancel(false);
                throw e;
            }
        }
    }

    @Test
    void a_wait_that_breaks_the_contract_is_counted_wrong() throws Exception {
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture<?>[] fs = {new CancelsOnTimeout(), new AlwaysCancels(), new CancelsOnInterrupt()};
            long[] ids = {39, 79, 119};
            String[] breach = {"a timed-out get left the wait CANCELLED", "a second cancel answered true", "an interrupted get left the wait CANCELLED"};
            for (int i = 0; i < 3; i++) {
                Ledger ledger = new Ledger(1000);
                Fates fates = new Fates(true, ledger);
                @SuppressWarnings("unchecked") CompletableFuture<Long> f = (CompletableFuture<Long>) fs[i];
                Job job = new Job(ids[i]);
                ex.submit(() -> fates.play(fates.of(job.id), f, job, ex, true)).get(10, TimeUnit.SECONDS);
                fates.settle(Duration.ofSeconds(2));
                Fates.Counts c = fates.count(120);
                assertTrue(c.violations() >= 1 && ledger.wrong.sum() == c.violations(), breach[i] + ": " + c);
                assertTrue(c.firstViolation().startsWith(breach[i]), c.firstViolation());
                assertFalse(ledger.count().clean(), "a breach makes the cell incorrect");
            }
        }
    }
}
