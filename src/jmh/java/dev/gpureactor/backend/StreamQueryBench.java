package dev.gpureactor.backend;

import dev.gpureactor.backend.hip.raw.HipRaw;
import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.hip.HipRuntime;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The cost of the backstop's raw query ({@code cuStreamQuery}, {@code hipStreamQuery}) through the
 * binding, on the stand-in drivers (a query of the null stream: one downcall that returns at once), so
 * what is measured is the binding's own share: finding the function's address and the downcall.
 * {@code -Dgar.native.dir=target/native} names where the stand-ins were built (default: target/native).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class StreamQueryBench {
    CudaDriver cuda;
    HipRuntime hip;
    final MemorySegment nullStream = MemorySegment.NULL;

    @Setup
    public void setup() {
        Path dir = Path.of(System.getProperty("gar.native.dir", "target/native")).toAbsolutePath();
        cuda = CudaDriver.load(dir.resolve("libcuda-standin.so").toString());
        hip = HipRuntime.load(dir.resolve("libamdhip64-standin.so").toString());
        cuda.ensureInitialized();
    }

    @Benchmark
    public int cuStreamQuery() {
        return CudaRaw.cuStreamQuery(cuda, nullStream);
    }

    @Benchmark
    public int hipStreamQuery() {
        return HipRaw.hipStreamQuery(hip, nullStream);
    }
}
