package dev.gpureactor.demo;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Java bodies for {@code cuLaunchHostFunc} / {@code hipLaunchHostFunc} ({@code void fn(void *userData)}), run
 * by the driver in stream order on a thread of its own: one device's (the tests' driver rig keeps one for its JVM). Its upcall stub is bound to this
 * object, so the bodies are this device's alone (no process-wide table), and {@code userData} is a body's
 * id. A body must not call the driver (both APIs forbid it) and nothing may escape it: an exception
 * unwinding into the driver would end the JVM.
 *
 * <p>The stub lives in an arena of its own, which {@link #close()} frees: the device calls it only once
 * every stream that could still run a body has been synchronized, so no driver thread can call the stub
 * after it is gone.
 */
@SuppressWarnings("restricted") // FFM: one upcall stub per device
public final class HostBodies implements AutoCloseable {
    private static final MethodHandle RUN;

    static {
        try {
            RUN = MethodHandles.lookup().findVirtual(HostBodies.class, "run", MethodType.methodType(void.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ConcurrentHashMap<Long, Runnable> bodies = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(1);
    private final Arena arena = Arena.ofShared();
    private final MemorySegment stub = Linker.nativeLinker().upcallStub(RUN.bindTo(this), FunctionDescriptor.ofVoid(ADDRESS), arena);

    /**
     * {@return {@code void fn(void *userData)}, the function pointer every body of this device is launched with}
     * Refused with a coded {@link ErrorCode#Rejected} once the device closed: its stub is freed.
     */
    public MemorySegment stub() {
        if (!arena.scope().isAlive()) throw new ReactorException(ErrorCode.Rejected, "demo device", "host function");
        return stub;
    }

    /** Registers a body that runs once; returns the user data to launch {@link #stub} with. */
    public MemorySegment register(Runnable body) {
        long id = ids.getAndIncrement();
        bodies.put(id, body);
        return MemorySegment.ofAddress(id);
    }

    /** Forgets a body whose launch failed. */
    public void forget(MemorySegment userData) {
        bodies.remove(userData.address());
    }

    private void run(MemorySegment userData) {
        try {
            Runnable body = bodies.remove(userData.address());
            if (body != null) body.run();
        } catch (Throwable ignored) {
            // nothing may unwind into the driver
        }
    }

    /** Frees the stub; call it only when no stream can still run a body (each one synchronized). */
    @Override
    public synchronized void close() {
        bodies.clear();
        if (arena.scope().isAlive()) arena.close(); // a device closed twice frees it once
    }
}
