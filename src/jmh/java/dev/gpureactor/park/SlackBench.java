package dev.gpureactor.park;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long {@code LockSupport.parkNanos(sleepNanos)} really sleeps, with the inherited timer slack and
 * with 1 ns ({@link ThreadSlack}). Sample mode: the oversleep is each sample minus {@code sleepNanos}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
public class SlackBench {
    @Param({"100000", "1000000"})
    public long sleepNanos;

    @Benchmark
    public void parkNanos(ThreadSlack slack) {
        LockSupport.parkNanos(sleepNanos);
    }
}
