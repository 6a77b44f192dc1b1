package dev.gpureactor.park;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Control;

import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Wake latency of a park after a store from another thread: a ping-pong over one line. "ping" stores a
 * sequence number into word 0 and parks until word 1 echoes it; "pong" parks until word 0 moves and echoes
 * it into word 1. One op is one round trip, i.e. two store-to-wake latencies plus two stores.
 *
 * <p>The park is the probe's choice ({@code park=auto}: the hardware park where the CPU has one, the
 * fallback otherwise, as on the 2-core VM) with the fallback's spin as a parameter: {@code spinNanos=0}
 * sleeps in 50 µs slices only (a store is seen at the end of a slice), 20000 is the default, and
 * 10000000000 spins for the whole wait (the busy-polling floor; it takes a core per waiter).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ParkWakeBench {
    static final Slot PING = Slot.of(0);
    static final Slot PONG = Slot.of(1);
    static final long BOUND = TimeUnit.MILLISECONDS.toNanos(1);

    @State(Scope.Group)
    public static class Line {
        @Param({"0", "20000", "10000000000"})
        public long spinNanos;

        @Param({"50000"})
        public long sliceNanos;

        @Param({"auto"})
        public String park;

        CompletionLine line;
        LinePark parker;

        @Setup(Level.Trial)
        public void setUp() {
            line = CompletionLine.allocate();
            parker = WordWait.probe().orElse(new FallbackPark(spinNanos, sliceNanos));
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            line.close();
        }
    }

    /** A reusable "word has reached target" predicate, so the measured loop does not allocate. */
    static final class Reached implements Predicate<CompletionLine> {
        final Slot slot;
        long target;

        Reached(Slot slot) { this.slot = slot; }

        @Override
        public boolean test(CompletionLine l) { return l.word(slot) - target >= 0; }
    }

    @State(Scope.Thread)
    public static class Ping {
        final Reached echoed = new Reached(PONG);
        long seq;
    }

    @State(Scope.Thread)
    public static class Pong {
        final Reached moved = new Reached(PING);
    }

    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public void ping(Line l, Ping me, ThreadSlack slack, Control control) {
        long seq = ++me.seq;
        me.echoed.target = seq;
        l.line.store(PING, seq);
        while (!control.stopMeasurement && !l.parker.park(l.line, me.echoed, BOUND)) {
            // early return: park again, as a parker does
        }
    }

    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public void pong(Line l, Pong me, ThreadSlack slack, Control control) {
        while (!control.stopMeasurement && !l.parker.park(l.line, me.moved, BOUND)) {
            // early return: park again
        }
        long seen = l.line.word(PING);
        me.moved.target = seen + 1;
        l.line.store(PONG, seen);
    }
}
