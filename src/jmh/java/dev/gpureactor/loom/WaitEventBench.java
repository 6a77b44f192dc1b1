package dev.gpureactor.loom;

import dev.gpureactor.parker.Reports;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * The cost of the {@code dev.gpureactor.Wait} JFR event on the wake path: one future signalled (the
 * parker's half) and resolved (the joiner's half: the readback and the event's commit), with the event
 * disabled (no recording, or a recording without it) and enabled. The difference is the event's cost.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class WaitEventBench {
    /**
     * off: no recording; recording: one runs without the wait event; threshold: the wait event at its
     * default, 20 ms (each wait begins an event, none is committed); on: every wait committed (threshold 0).
     */
    @Param({"off", "recording", "threshold", "on"})
    public String jfr;

    private CompletionLine line;
    private MemoryDescriptor descriptor;
    private Recording recording;
    private static final CompletionPort PORT = new CompletionPort() {
        @Override public boolean query() { return true; }
        @Override public void block() {}
        @Override public void arm() {}
        @Override public boolean park(long boundNanos) { return true; }
    };

    @Setup(Level.Trial)
    public void setUp() {
        line = CompletionLine.allocate();
        descriptor = new MemoryDescriptor(line, Slot.of(0), 1);
        if (!jfr.equals("off")) {
            recording = new Recording();
            switch (jfr) {
                case "recording" -> recording.disable("dev.gpureactor.Wait");
                case "threshold" -> recording.enable("dev.gpureactor.Wait");
                default -> recording.enable("dev.gpureactor.Wait").withThreshold(java.time.Duration.ZERO);
            }
            recording.setToDisk(true);
            recording.start();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (recording != null) recording.close();
        line.close();
    }

    @Benchmark
    public Integer signalAndResolve() {
        GpuFuture<Integer> f = new GpuFuture<>(1, descriptor, PORT, () -> 42, Runnable::run, 0, 0, 0, 0, null, "bench", Inline.NONE, Reports.IN_PLACE);
        f.signal();
        return f.resultNow();
    }
}
