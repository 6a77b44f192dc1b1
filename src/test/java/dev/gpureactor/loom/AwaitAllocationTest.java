package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What one {@code await} allocates on the calling thread: the future, its registration node and the
 * slot's default point, and under gpu-reactor the inbox's queue node; nothing the kind does not use
 * (before the split every await also made a {@code NaiveWait} and the lambdas of the inline policy
 * and, under gpu-reactor, of the withdrawal). Bytes, counted by the JVM per thread: no timing.
 */
class AwaitAllocationTest {
    /** Bytes per await measured on the build before the split (docs/BENCHMARKS.md, "Bytes per await"). */
    static final long GPU_REACTOR_BEFORE = 256, NAIVE_BEFORE = 208;

    private static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { throw new UnsupportedOperationException("never done"); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    /** Bytes this thread allocates per {@code await} of a wait that is not yet reached, after a warm-up. */
    static long bytesPerAwait(ExecutorKind kind, int n) {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (CompletionLine line = CompletionLine.allocate(); GpuReactor r = GpuReactor.builder().kind(kind).carriers(1).build()) {
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

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"GPU_REACTOR", "NAIVE"})
    void an_await_allocates_less_than_before_the_split(ExecutorKind kind) {
        long bytes = bytesPerAwait(kind, 20_000);
        long before = kind == ExecutorKind.NAIVE ? NAIVE_BEFORE : GPU_REACTOR_BEFORE;
        System.out.println("bytes per await (" + kind + ", not reached): " + bytes);
        assertTrue(bytes < before, kind + ": bytes per await: " + bytes + ", before the split: " + before);
    }
}
