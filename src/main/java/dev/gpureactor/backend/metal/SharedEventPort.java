package dev.gpureactor.backend.metal;

import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link CompletionPort} over an {@code MTLSharedEvent} reaching a target value.
 * <b>Written, not run</b>: see {@link MetalRuntime}.
 *
 * <ul>
 *   <li>{@link #query()}: {@code signaledValue} reached the target (wrapping order); when the port
 *       has a command buffer, a buffer in {@code MTLCommandBufferStatusError} fails it with a coded
 *       {@code Backend} error carrying the buffer's {@code error.localizedDescription}.
 *   <li>{@link #block()} and {@link #park(long)}: {@code waitUntilSignaledValue:timeoutMS:} (block in
 *       slices of {@value #BLOCK_SLICE_MS} ms, checking interrupts and the buffer's status); a park
 *       bound under 1 ms is an OS sleep and a check ({@link #split}).
 *   <li>{@link #arm()}: nothing; the signal is encoded into the command buffer before it is
 *       committed ({@link SharedEvent#encodeSignal}).
 * </ul>
 */
public final class SharedEventPort implements CompletionPort {
    /** MTLCommandBufferStatusError. */
    static final long STATUS_ERROR = 5;
    static final long BLOCK_SLICE_MS = 100;

    private final SharedEvent event;
    private final long target;
    private final MemorySegment commandBuffer;

    SharedEventPort(SharedEvent event, long target, MemorySegment commandBuffer) {
        this.event = event;
        this.target = target;
        this.commandBuffer = commandBuffer;
    }

    @Override
    public boolean query() {
        if (MemoryDescriptor.reached(event.signaledValue(), target)) return true;
        checkBuffer();
        return false;
    }

    @Override
    public void block() throws InterruptedException {
        while (!event.waitUntilSignaled(target, BLOCK_SLICE_MS)) {
            if (Thread.interrupted()) throw new InterruptedException();
            checkBuffer();
        }
    }

    @Override
    public void arm() {
        // encoded by the caller into the command buffer, before commit
    }

    /**
     * Parks within {@code boundNanos} without spinning: {@code waitUntilSignaledValue:timeoutMS:} counts
     * whole milliseconds, and a bound below one (a parker's park usually is) divided down to 0 ms made
     * the wait a bare check, so the parker spun hot. See {@link #split}.
     */
    @Override
    public boolean park(long boundNanos) throws InterruptedException {
        ParkSplit split = split(boundNanos);
        if (split.sleepNanos() > 0) LockSupport.parkNanos(this, split.sleepNanos());
        boolean reached = event.waitUntilSignaled(target, split.waitMillis());
        if (Thread.interrupted()) throw new InterruptedException();
        return reached;
    }

    /**
     * How a park of {@code boundNanos} is spent: an OS sleep (nanoseconds), then the event wait (whole
     * milliseconds, at most {@value #BLOCK_SLICE_MS}, so interrupts and buffer errors are seen).
     */
    record ParkSplit(long sleepNanos, long waitMillis) {}

    /**
     * The split of a park's bound. No bound: a check only. Under 1 ms: sleep the bound in the OS, then
     * check (the event wait cannot wait less than 1 ms and would return at once). From 1 ms: the event
     * wait itself, which returns as soon as the value is signalled, for the whole milliseconds of the
     * bound (never past it), capped at {@value #BLOCK_SLICE_MS} ms.
     */
    static ParkSplit split(long boundNanos) {
        if (boundNanos <= 0) return new ParkSplit(0, 0);
        if (boundNanos < 1_000_000) return new ParkSplit(boundNanos, 0);
        return new ParkSplit(0, Math.min(BLOCK_SLICE_MS, boundNanos / 1_000_000));
    }

    /** {@return the value that means done} */
    public long target() { return target; }

    private void checkBuffer() {
        if (commandBuffer.address() == 0) return;
        MetalRuntime rt = event.runtime();
        long status = rt.sendU64(commandBuffer, "status");
        if (status != STATUS_ERROR) return;
        MemorySegment pool = rt.poolPush();
        String text;
        try {
            MemorySegment error = rt.sendId(commandBuffer, "error");
            MemorySegment description = error.address() == 0 ? MemorySegment.NULL : rt.sendId(error, "localizedDescription");
            String utf8 = description.address() == 0 ? null : NativeLibrary.cString(rt.sendId(description, "UTF8String"));
            text = utf8 != null ? utf8 : "no error description";
        } finally {
            rt.poolPop(pool);
        }
        throw new ReactorException(ErrorCode.Backend, "metal", "MTLCommandBuffer", status, "MTLCommandBufferStatusError", text);
    }
}
