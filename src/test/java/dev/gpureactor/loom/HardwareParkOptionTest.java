package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import dev.gpureactor.park.WordWait;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code Builder.hardwarePark(false)}: the parkers use the pure-Java park even where a hardware one exists. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HardwareParkOptionTest {
    record WordPort(MemoryDescriptor d) implements CompletionPort {
        @Override public boolean query() { return d.isComplete(); }
        @Override public void block() { while (!d.isComplete()) Thread.onSpinWait(); }
        @Override public void arm() {}
        @Override public boolean park(long boundNanos) { return d.isComplete(); }
    }

    @Test
    void theDefaultParksAsTheProbeSaysAndTheOptionForcesTheFallback() throws Exception {
        WordWait.Probe probe = WordWait.probe();
        try (GpuReactor r = GpuReactor.open()) {
            assertEquals(probe.wordWait().map(WordWait::describe).orElse(GpuReactor.FALLBACK_PARK), r.park());
        }
        try (GpuReactor r = GpuReactor.builder().hardwarePark(false).build(); CompletionLine line = CompletionLine.allocate()) {
            assertEquals(GpuReactor.FALLBACK_PARK, r.park());
            MemoryDescriptor d = new MemoryDescriptor(line, Slot.of(0), 1);
            GpuFuture<Void> f = r.await(d, new WordPort(d));
            Thread vt = r.startVirtualThread(f::join);
            line.store(Slot.of(0), 1);
            vt.join();
            assertEquals(java.util.concurrent.Future.State.SUCCESS, f.state());
        }
    }
}
