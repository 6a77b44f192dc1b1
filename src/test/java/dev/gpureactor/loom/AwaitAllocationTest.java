package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What one {@code await} allocates on the calling thread under the default kind (gpu-reactor): the
 * future, its registration node, the inbox's queue node and the slot's default point; nothing the
 * kind does not use (before the split every await also made a {@code NaiveWait} and the lambdas of
 * the inline policy and the withdrawal). Bytes, counted by the JVM per thread: no timing.
 */
class AwaitAllocationTest {
    /** Bytes per await measured before the split (docs/BENCHMARKS.md, "Bytes per await"). */
    static final long BEFORE_SPLIT = 256;

    private static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { throw new UnsupportedOperationException("never done"); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    /** Bytes this thread allocates per {@code await} of a wait that is not yet reached, after a warm-up. */
    static long bytesPerAwait(int n) {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (CompletionLine line = CompletionLine.allocate(); GpuReactor r = GpuReactor.builder().carriers(1).build()) {
            MemoryDescriptor[] ds = new MemoryDescriptor[2 * n];
            for (int i = 0; i < ds.length; i++) ds[i] = new MemoryDescriptor(line, Slot.of(i % CompletionLine.WORDS), 1 + i);
            GpuFuture<?>[] kept = new GpuFuture<?>[2 * n];
            for (int i = 0; i < n; i++) kept[i] = r.await(ds[i], NEVER); // warm-up: the JIT, the parker, the point table
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = n; i < 2 * n; i++) kept[i] = r.await(ds[i], NEVER);
            long after = mx.getCurrentThreadAllocatedBytes();
            for (GpuFuture<?> f : kept) assertTrue(f.isPending(), "no wait may end: its target is never stored");
            return (after - before) / n;
        }
    }

    @Test
    void an_await_under_gpu_reactor_allocates_less_than_before_the_split() {
        long bytes = bytesPerAwait(20_000);
        System.out.println("bytes per await (gpu-reactor, registered, not reached): " + bytes);
        assertTrue(bytes < BEFORE_SPLIT, "bytes per await: " + bytes + ", before the split: " + BEFORE_SPLIT);
    }
}
