package dev.gpureactor.backend.metal;

import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An {@code MTLSharedEvent}: the completion source of the Metal backend. A command buffer encodes
 * {@code encodeSignalEvent:value:} behind its work ({@link #encodeSignal}); the host reads {@code
 * signaledValue} and waits with {@code waitUntilSignaledValue:timeoutMS:} (macOS 12+).
 * <b>Written, not run</b>: see {@link MetalRuntime}.
 */
public final class SharedEvent implements AutoCloseable {
    private final MetalRuntime rt;
    private final MemorySegment event;
    private volatile boolean closed;

    private SharedEvent(MetalRuntime rt, MemorySegment event) {
        this.rt = rt;
        this.event = event;
    }

    /**
     * {@return a new event (value 0) on the system default device}
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} off macOS ("not macOS"), or
     *     when there is no Metal device or it cannot make a shared event
     */
    public static SharedEvent create() {
        MetalRuntime rt = MetalRuntime.load();
        MemorySegment device = rt.systemDefaultDevice();
        if (device.address() == 0) throw NativeLibrary.unavailable("Metal.framework", "no Metal device", null);
        return create(rt, device);
    }

    /**
     * {@return a new event on {@code device} (an {@code id<MTLDevice>})}
     *
     * @param rt the runtime
     * @param device the device
     */
    public static SharedEvent create(MetalRuntime rt, MemorySegment device) {
        Objects.requireNonNull(rt, "rt");
        MemorySegment event = rt.sendId(device, "newSharedEvent");
        if (event.address() == 0) {
            throw NativeLibrary.unavailable("Metal.framework", "the device cannot make an MTLSharedEvent", null);
        }
        return new SharedEvent(rt, event);
    }

    /** {@return the {@code id<MTLSharedEvent>}, for encoding into command buffers of other bindings} */
    public MemorySegment event() { return live(); }

    /** {@return the event's value now ({@code signaledValue})} */
    public long signaledValue() {
        return rt.sendU64(live(), "signaledValue");
    }

    /**
     * Signals from the host (the value only grows).
     *
     * @param value the value
     */
    public void signal(long value) {
        rt.sendVoidU64(live(), "setSignaledValue:", value);
    }

    /**
     * Encodes the signal of {@code value} behind the command buffer's work; call before {@code commit}.
     *
     * @param commandBuffer the command buffer
     * @param value the value
     */
    public void encodeSignal(MemorySegment commandBuffer, long value) {
        rt.sendVoidIdU64(commandBuffer, "encodeSignalEvent:value:", live(), value);
    }

    /**
     * {@code waitUntilSignaledValue:timeoutMS:}: {@code true} once the value reached {@code value}.
     *
     * @param value the value
     * @param timeoutMillis the timeout, in milliseconds
     * @return whether the value was reached in time
     */
    public boolean waitUntilSignaled(long value, long timeoutMillis) {
        return rt.sendBoolU64U64(live(), "waitUntilSignaledValue:timeoutMS:", value, Math.max(0, timeoutMillis));
    }

    /**
     * {@return a port waiting for the value to reach {@code target}}
     *
     * @param target the value that means done
     */
    public SharedEventPort port(long target) {
        return new SharedEventPort(this, target, MemorySegment.NULL);
    }

    /**
     * {@return a port that also reads {@code commandBuffer}'s status, so a failed buffer fails the wait}
     *
     * @param target the value that means done
     * @param commandBuffer the command buffer
     */
    public SharedEventPort port(long target, MemorySegment commandBuffer) {
        return new SharedEventPort(this, target, commandBuffer);
    }

    MetalRuntime runtime() { return rt; }

    private MemorySegment live() {
        if (closed) throw new ReactorException(ErrorCode.LineClosed, "MTLSharedEvent", "use it");
        return event;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        rt.sendVoid(event, "release");
    }
}
