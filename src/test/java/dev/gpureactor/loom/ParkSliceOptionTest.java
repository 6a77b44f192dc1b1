package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code Builder.parkSlice}: the pure-Java park's OS sleep between two looks, in range or a coded refusal. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParkSliceOptionTest {

    @Test
    void the_default_is_100_us_and_the_option_reaches_the_reactor() {
        try (GpuReactor r = GpuReactor.builder().jmx(false).build()) {
            assertEquals(Duration.ofNanos(100_000), r.parkSlice());
        }
        try (GpuReactor r = GpuReactor.builder().jmx(false).parkSlice(Duration.ofNanos(150_000)).build()) {
            assertEquals(Duration.ofNanos(150_000), r.parkSlice());
        }
    }

    @Test
    void a_slice_out_of_range_is_refused_with_what_would_be_right() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(999), Duration.ofMillis(10).plusNanos(1), Duration.ofNanos(-1)}) {
            ReactorException e = assertThrows(ReactorException.class, () -> GpuReactor.builder().parkSlice(bad), bad.toString());
            assertEquals(ErrorCode.InvalidArgument, e.code());
            assertTrue(e.getMessage().contains("parkSlice"), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> GpuReactor.builder().parkSlice(null));
        GpuReactor.builder().parkSlice(Duration.ofNanos(1_000)).parkSlice(Duration.ofMillis(10)); // both ends are in range
    }

    @Test
    void a_wait_under_a_long_slice_is_still_seen() throws Exception {
        // The slice decides when to look again, never whether: a store is seen by the next look at the latest.
        // The plan's park bound is raised with it, or every slice would be cut to the default park_us (100 µs).
        try (GpuReactor r = GpuReactor.builder().jmx(false).hardwarePark(false).plan("flag:park_us=10000,backstop_us=1000000")
                .parkSlice(Duration.ofMillis(10)).build();
             CompletionLine line = CompletionLine.allocate()) {
            MemoryDescriptor d = new MemoryDescriptor(line, Slot.of(0), 1);
            GpuFuture<Void> f = r.await(d, new HardwareParkOptionTest.WordPort(d));
            Thread vt = r.startVirtualThread(f::join);
            line.store(Slot.of(0), 1);
            vt.join();
            assertEquals(Future.State.SUCCESS, f.state());
            assertTrue(r.warnings().stream().noneMatch(w -> w.code() == ErrorCode.InvalidArgument), "a slice within the park: " + r.warnings());
        }
    }

    @Test
    void a_chosen_slice_past_the_plans_park_bound_is_warned_and_one_within_it_is_not() {
        try (GpuReactor r = GpuReactor.builder().jmx(false).parkSlice(Duration.ofNanos(200_000)).build()) {
            Warning w = r.warnings().stream().filter(x -> x.code() == ErrorCode.InvalidArgument).findFirst()
                    .orElseThrow(() -> new AssertionError("no warning for a 200 µs slice under park_us=100: " + r.warnings()));
            assertTrue(w.message().contains("parkSlice = 200 µs") && w.message().contains("park_us (100 µs)"), w.message());
        }
        try (GpuReactor r = GpuReactor.builder().jmx(false).plan("flag:park_us=200,backstop_us=1000").parkSlice(Duration.ofNanos(200_000)).build()) {
            assertTrue(r.warnings().stream().noneMatch(x -> x.code() == ErrorCode.InvalidArgument), "the slice fits the park: " + r.warnings());
        }
        try (GpuReactor r = GpuReactor.builder().jmx(false).plan("flag:park_us=50,backstop_us=1000").build()) {
            assertTrue(r.warnings().stream().noneMatch(x -> x.code() == ErrorCode.InvalidArgument),
                    "a shorter park_us under the default slice is the user's choice of a shorter park: " + r.warnings());
        }
    }
}
