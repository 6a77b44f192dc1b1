package dev.gpureactor.backend;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Java bodies for {@code cuLaunchHostFunc} / {@code hipLaunchHostFunc}: {@code void fn(void
 * *userData)}, run by the driver in stream order on a thread of its own. One upcall stub serves
 * every body; {@code userData} is the body's id. A body must not call the driver (both APIs forbid
 * it) and nothing may escape it: an exception unwinding into the driver would end the JVM.
 */
@SuppressWarnings("restricted") // FFM: one upcall stub, made once
public final class HostFunction {
    private static final ConcurrentHashMap<Long, Runnable> BODIES = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong(1);
    private static volatile MemorySegment stub;

    private HostFunction() {}

    /** {@return the function pointer to pass with {@link #register}'s user data} */
    public static MemorySegment stub() {
        MemorySegment s = stub;
        if (s != null) return s;
        synchronized (HostFunction.class) {
            if (stub == null) {
                try {
                    var mh = MethodHandles.lookup().findStatic(HostFunction.class, "run",
                            MethodType.methodType(void.class, MemorySegment.class));
                    stub = Linker.nativeLinker().upcallStub(mh, FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return stub;
        }
    }

    /**
     * Registers a body that runs once; returns the user data to launch it with.
     *
     * @param body the body
     * @return the function pointer to pass with its user data
     */
    public static MemorySegment register(Runnable body) {
        long id = IDS.getAndIncrement();
        BODIES.put(id, body);
        return MemorySegment.ofAddress(id);
    }

    /**
     * Forgets a body whose launch failed.
     *
     * @param userData the host function's argument
     */
    public static void forget(MemorySegment userData) {
        BODIES.remove(userData.address());
    }

    private static void run(MemorySegment userData) {
        try {
            Runnable body = BODIES.remove(userData.address());
            if (body != null) body.run();
        } catch (Throwable ignored) {
            // nothing may unwind into the driver
        }
    }
}
