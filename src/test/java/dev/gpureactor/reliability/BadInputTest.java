package dev.gpureactor.reliability;

import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.host.Watcher;
import dev.gpureactor.loom.GpuExecutorService;
import dev.gpureactor.loom.GpuReactor;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Bad durations and work refused after close: every duration setting refuses a value past a
 * {@code long} of nanoseconds, a negative one, and zero where zero means nothing, with a coded
 * {@link ErrorCode#InvalidArgument} naming the setting (never {@code ArithmeticException: long
 * overflow}); what a closed reactor refuses says so with {@link ErrorCode#Rejected}, not with a
 * wait's {@link ErrorCode#ShutDown} text.
 */
class BadInputTest {
    /** Past a long of nanoseconds: {@code toNanos()} throws {@link ArithmeticException}. */
    private static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE);
    private static final Duration NEGATIVE = Duration.ofNanos(-1);

    private static void invalid(String name, Executable e) {
        ReactorException r = assertThrows(ReactorException.class, e);
        assertEquals(ErrorCode.InvalidArgument, r.code(), r.getMessage());
        assertEquals(name, r.args().getFirst(), r.getMessage());
        assertEquals(ErrorCode.InvalidArgument.arity(), r.args().size(), r.getMessage());
    }

    @TestFactory
    Stream<DynamicTest> every_duration_setting_refuses_a_huge_or_negative_value_with_a_coded_error() throws Exception {
        SimDevice dev = SimDevice.open();
        SimStream s = dev.stream();
        record Setting(String call, String name, java.util.function.Function<Duration, Object> apply) {}
        List<Setting> settings = List.of(
                new Setting("Builder.parkSlice", "parkSlice", d -> GpuReactor.builder().parkSlice(d)),
                new Setting("Builder.parkSpin", "parkSpin", d -> GpuReactor.builder().parkSpin(d)),
                new Setting("new Watcher(interval, ...)", "interval", d -> new Watcher(d, HUGE, w -> { })),
                new Setting("new Watcher(..., backstop, ...)", "backstop", d -> new Watcher(Duration.ofMillis(1), d, w -> { })),
                new Setting("SimStream.compute(d)", "compute", s::compute),
                new Setting("SimStream.compute(d, body)", "compute", d -> s.compute(d, () -> { })),
                new Setting("CompletionLine.allocate(closeLimit, warnings)", "closeLimit", d -> CompletionLine.allocate(d, w -> { })),
                new Setting("LineOptions.withSettleTimeout", "settleTimeout", d -> LineOptions.defaults().withSettleTimeout(d)));
        return settings.stream().flatMap(st -> Stream.of(
                DynamicTest.dynamicTest(st.call() + ": huge", () -> invalid(st.name(), () -> st.apply().apply(HUGE))),
                DynamicTest.dynamicTest(st.call() + ": negative", () -> invalid(st.name(), () -> st.apply().apply(NEGATIVE)))));
    }

    @Test
    void zero_is_refused_where_it_means_nothing_and_taken_where_it_means_none() throws Exception {
        invalid("interval", () -> new Watcher(Duration.ZERO, Duration.ofMillis(1), w -> { }));
        invalid("parkSlice", () -> GpuReactor.builder().parkSlice(Duration.ZERO));
        // Zero is a setting here: no spin, no time of work, one try at closing.
        GpuReactor.builder().parkSpin(Duration.ZERO);
        try (SimDevice dev = SimDevice.open()) {
            dev.stream().compute(Duration.ZERO);
        }
        CompletionLine.allocate(Duration.ZERO, w -> { }).close();
        LineOptions.defaults().withSettleTimeout(Duration.ZERO);
        // The longest duration a long of nanoseconds holds is still taken where a limit is meant.
        assertEquals(Long.MAX_VALUE, Durations.nonNegativeNanos("x", Durations.MAX));
        try (Watcher w = new Watcher(Duration.ofMillis(1), Durations.MAX, x -> { })) {
            assertNotNull(w);
        }
    }

    @Test
    void a_carrier_count_past_its_bound_is_refused_with_a_coded_error_at_the_setting() {
        for (int n : new int[] {0, -1, 4097, 32_767, 32_768, 100_000, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            invalid("carriers", () -> GpuReactor.builder().carriers(n));
        }
        ReactorException e = assertThrows(ReactorException.class, () -> GpuReactor.builder().carriers(32_768));
        assertEquals("GAR-0022 InvalidArgument: carriers = 32768 is invalid; expected 1..4096", e.getMessage());
        assertNotNull(GpuReactor.builder().carriers(4096), "the bound itself is a setting");
    }

    @Test
    void the_coded_refusal_says_what_was_wrong_and_what_would_be_right() {
        ReactorException e = assertThrows(ReactorException.class, () -> GpuReactor.builder().parkSpin(HUGE));
        assertTrue(e.getMessage().startsWith("GAR-0022 InvalidArgument: parkSpin = " + HUGE + " is invalid; expected >= 0 and at most "),
                e.getMessage());
        e = assertThrows(ReactorException.class, () -> GpuReactor.builder().parkSlice(HUGE));
        assertEquals("GAR-0022 InvalidArgument: parkSlice = " + HUGE + " is invalid; expected between 1 µs and 10 ms", e.getMessage());
    }

    @Test
    void work_refused_after_close_says_it_was_refused_not_that_a_wait_was_cut_short() throws Exception {
        GpuReactor r = GpuReactor.builder().carriers(1).build();
        ThreadFactory factory = r.threadFactory();
        GpuExecutorService exec = r.newExecutor();
        r.close();
        refused("GAR-0025 Rejected: executor is shut down: it accepts no new task",
                assertThrows(RejectedExecutionException.class, () -> exec.execute(() -> { })).getMessage());
        refused("GAR-0025 Rejected: reactor is shut down: it accepts no new virtual thread",
                assertThrows(RejectedExecutionException.class, () -> factory.newThread(() -> { })).getMessage());
        refused("GAR-0025 Rejected: reactor is shut down: it accepts no new executor",
                assertThrows(ReactorException.class, r::newExecutor).getMessage());
        refused("GAR-0025 Rejected: reactor is shut down: it accepts no new virtual thread",
                assertThrows(ReactorException.class, r::threadFactory).getMessage());
    }

    @Test
    void a_refused_task_or_thread_carries_the_coded_rejection_as_its_cause() {
        GpuReactor r = GpuReactor.builder().carriers(1).build();
        ThreadFactory factory = r.threadFactory();
        GpuExecutorService exec = r.newExecutor();
        r.close();
        for (RejectedExecutionException e : List.of(
                assertThrows(RejectedExecutionException.class, () -> exec.submit(() -> "late")),
                assertThrows(RejectedExecutionException.class, () -> factory.newThread(() -> { })))) {
            ReactorException coded = assertInstanceOf(ReactorException.class, e.getCause(), "callers branch on the code, not the text");
            assertEquals(ErrorCode.Rejected, coded.code());
            assertEquals(coded.getMessage(), e.getMessage());
        }
    }

    private static void refused(String expected, String message) {
        assertEquals(expected, message);
        assertFalse(message.contains("wait"), message);
    }
}
