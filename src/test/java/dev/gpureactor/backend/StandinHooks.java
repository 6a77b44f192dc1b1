package dev.gpureactor.backend;

import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.loader.NativeLoader;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The stand-in drivers' test hooks (the same in the CUDA and HIP stand-ins; see the headers). */
public final class StandinHooks {
    public static final Map<String, FunctionDescriptor> FUNCTIONS;

    static {
        Map<String, FunctionDescriptor> f = new LinkedHashMap<>();
        f.put("gar_standin_launch_sleep", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        f.put("gar_standin_launch_spin", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        f.put("gar_standin_launch_fail", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        f.put("gar_standin_launch_hang", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("gar_standin_release_hangs", FunctionDescriptor.ofVoid());
        f.put("gar_standin_set", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        f.put("gar_standin_counter", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        f.put("gar_standin_primary_refs", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
        f.put("gar_standin_last_alloc_flags", FunctionDescriptor.of(JAVA_INT));
        f.put("gar_standin_reset", FunctionDescriptor.ofVoid());
        FUNCTIONS = Collections.unmodifiableMap(f);
    }

    private final Map<String, MethodHandle> h = new LinkedHashMap<>();

    public StandinHooks(String library) {
        NativeLibrary lib = NativeLoader.load(library);
        FUNCTIONS.forEach((name, fd) -> h.put(name, lib.downcall(name, fd).orElseThrow(() -> lib.missing(name))));
    }

    private int status(String name, long stream, long usec) {
        try {
            return (int) h.get(name).invokeExact(MemorySegment.ofAddress(stream), usec);
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    /** A kernel that sleeps {@code usec}. */
    public void launchSleep(long stream, long usec) { assertEquals(0, status("gar_standin_launch_sleep", stream, usec)); }

    public void launchSpin(long stream, long usec) { assertEquals(0, status("gar_standin_launch_spin", stream, usec)); }

    /** A kernel that fails with LAUNCH_FAILED after {@code usec}; later work on the stream never runs. */
    public void launchFail(long stream, long usec) { assertEquals(0, status("gar_standin_launch_fail", stream, usec)); }

    /** A kernel that runs until {@link #releaseHangs()}. */
    public void launchHang(long stream) {
        try {
            assertEquals(0, (int) h.get("gar_standin_launch_hang").invokeExact(MemorySegment.ofAddress(stream)));
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public void releaseHangs() {
        try { h.get("gar_standin_release_hangs").invokeExact(); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    /** Sets a fault: fail_alloc, attr_122, attr_92, attr_93, devices. */
    public void set(String fault, long value) {
        try (Arena a = Arena.ofConfined()) {
            assertEquals(0, (int) h.get("gar_standin_set").invokeExact(a.allocateFrom(fault), value), "fault " + fault);
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public long counter(String name) {
        try (Arena a = Arena.ofConfined()) {
            long v = (long) h.get("gar_standin_counter").invokeExact(a.allocateFrom(name));
            if (v < 0) throw new IllegalArgumentException("no counter " + name);
            return v;
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public long primaryRefs(int device) {
        try { return (long) h.get("gar_standin_primary_refs").invokeExact(device); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int lastAllocFlags() {
        try { return (int) h.get("gar_standin_last_alloc_flags").invokeExact(); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    /** Faults back to defaults, counters to 0. */
    public void reset() {
        try { h.get("gar_standin_reset").invokeExact(); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }
}
