package dev.gpureactor.backend.metal;

import dev.gpureactor.backend.NativeLibrary;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;

/**
 * A {@link CompletionPort} over an {@code MTLSharedEvent} reaching a target value.
 * <b>Written, not run</b>: see {@link MetalRuntime}.
 *
 * <ul>
 *   <li>{@link #query()}: {@code signaledValue} reached the target (wrapping order); when the port
 *       has a command buffer, a buffer in {@code MTLCommandBufferStatusError} fails it with a coded
 *       {@code Backend} error carrying the buffer's {@code error.localizedDescription}.
 *   <li>{@link #block()} and {@link #park(long)}: {@code waitUntilSignaledValue:timeoutMS:} (block in
 *       slices of {@value #BLOCK_SLICE_MS} ms, checking interrupts and the buffer's status).
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

    @Override
    public boolean park(long boundNanos) throws InterruptedException {
        boolean reached = event.waitUntilSignaled(target, Math.max(0, boundNanos) / 1_000_000);
        if (Thread.interrupted()) throw new InterruptedException();
        return reached;
    }

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
