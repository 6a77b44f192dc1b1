package dev.gpureactor.loom;

import dev.gpureactor.parker.Reports;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.parker.LineWait;

/** A {@link GpuFuture}'s registration node: it settles that future, and nothing else of it. */
final class FutureNode extends LineWait {
    private final GpuFuture<?> future;

    FutureNode(GpuFuture<?> future, long id, MemoryDescriptor descriptor, CompletionPort port, long startNanos, long wakeAtNanos,
               long resumeAtNanos, long spreadNanos, Object pointKey, String planLabel, Reports reports) {
        super(id, descriptor, port, startNanos, wakeAtNanos, resumeAtNanos, spreadNanos, pointKey, planLabel, reports);
        this.future = future;
    }

    @Override public boolean signal() { return future.signal(); }

    @Override public boolean fail(ReactorException error) { return future.fail(error); }

    @Override public boolean isPending() { return future.rawState() == GpuFuture.PENDING; }
}
