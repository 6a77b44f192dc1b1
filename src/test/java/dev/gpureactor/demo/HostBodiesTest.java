package dev.gpureactor.demo;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The GPU demo's host-function bodies, called through their upcall stub as a driver calls it ({@code void
 * fn(void *userData)}), here by a downcall on the test's thread: no driver needed.
 */
@SuppressWarnings("restricted")
class HostBodiesTest {
    /** Calls {@code fn(userData)} as the driver's thread would. */
    static void callAsDriver(MemorySegment fn, MemorySegment userData) throws Throwable {
        MethodHandle call = Linker.nativeLinker().downcallHandle(fn, FunctionDescriptor.ofVoid(ADDRESS));
        call.invokeExact(userData);
    }

    @Test
    void a_body_runs_once_when_its_stream_reaches_it_and_a_forgotten_one_never() throws Throwable {
        try (HostBodies bodies = new HostBodies()) {
            AtomicInteger ran = new AtomicInteger();
            MemorySegment first = bodies.register(ran::incrementAndGet);
            MemorySegment second = bodies.register(() -> ran.addAndGet(10));
            assertNotEquals(first.address(), second.address(), "each body its own user data");
            callAsDriver(bodies.stub(), first);
            assertEquals(1, ran.get());
            callAsDriver(bodies.stub(), first); // a stale user data: nothing registered under it any more
            assertEquals(1, ran.get(), "a body runs once");
            bodies.forget(second); // its launch failed
            callAsDriver(bodies.stub(), second);
            assertEquals(1, ran.get(), "a forgotten body does not run");
        }
    }

    @Test
    void a_body_that_throws_does_not_unwind_into_the_driver() throws Throwable {
        try (HostBodies bodies = new HostBodies()) {
            AtomicInteger after = new AtomicInteger();
            callAsDriver(bodies.stub(), bodies.register(() -> { throw new IllegalStateException("a body's bug"); }));
            callAsDriver(bodies.stub(), bodies.register(after::incrementAndGet)); // the upcall returned: the JVM lives on
            assertEquals(1, after.get());
        }
    }

    @Test
    void a_closed_devices_stub_is_refused_with_a_code_and_a_second_close_is_harmless() {
        HostBodies bodies = new HostBodies();
        bodies.close();
        ReactorException e = assertThrows(ReactorException.class, bodies::stub);
        assertEquals(ErrorCode.Rejected, e.code());
        assertTrue(e.getMessage().contains("host function"), e.getMessage());
        bodies.close();
    }
}
