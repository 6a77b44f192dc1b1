package dev.gpureactor.park;

import dev.gpureactor.loader.NativeLoader;
import dev.gpureactor.core.CompletionLine;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

/**
 * The cost of one downcall into libgarpark, linked plainly and with {@code Linker.Option.critical(false)}
 * (no thread-state transition): {@code garpark_abi_version} (an empty function returning a constant) and
 * {@code garpark_differs} (two pointers, eight acquire loads). The handles are static finals, as in
 * jextract's output, so the JIT sees constants; {@code differsViaBinding} calls through the
 * {@link NativePark} instance the park uses. {@code parkRefused} is the blocking park's plain downcall on
 * a CPU without a wait instruction, where it returns at once.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@SuppressWarnings("restricted")
public class DowncallBench {
    static final NativePark LIB = NativePark.bind(NativeLoader.defaultLoader().extract(NativePark.LIBRARY));
    static final Linker LINKER = Linker.nativeLinker();
    static final MethodHandle ABI_PLAIN =
        LINKER.downcallHandle(LIB.garpark_abi_version$address(), NativePark.garpark_abi_version$descriptor());
    static final MethodHandle ABI_CRITICAL = LINKER.downcallHandle(
        LIB.garpark_abi_version$address(), NativePark.garpark_abi_version$descriptor(), Linker.Option.critical(false));
    static final MethodHandle DIFFERS_PLAIN =
        LINKER.downcallHandle(LIB.garpark_differs$address(), NativePark.garpark_differs$descriptor());
    static final MethodHandle DIFFERS_CRITICAL = LINKER.downcallHandle(
        LIB.garpark_differs$address(), NativePark.garpark_differs$descriptor(), Linker.Option.critical(false));
    static final MethodHandle PARK_PLAIN =
        LINKER.downcallHandle(LIB.garpark_park$address(), NativePark.garpark_park$descriptor());

    final CompletionLine line = CompletionLine.allocate();
    final MemorySegment words = line.segment();
    final MemorySegment snapshot = Arena.global().allocate(CompletionLine.BYTES, 64);

    @Benchmark
    public int abiVersionPlain() throws Throwable {
        return (int) ABI_PLAIN.invokeExact();
    }

    @Benchmark
    public int abiVersionCritical() throws Throwable {
        return (int) ABI_CRITICAL.invokeExact();
    }

    @Benchmark
    public int differsPlain() throws Throwable {
        return (int) DIFFERS_PLAIN.invokeExact(words, snapshot);
    }

    @Benchmark
    public int differsCritical() throws Throwable {
        return (int) DIFFERS_CRITICAL.invokeExact(words, snapshot);
    }

    @Benchmark
    public int differsViaBinding() {
        return LIB.garpark_differs(words, snapshot);
    }

    @Benchmark
    public int parkRefused() throws Throwable {
        return (int) PARK_PLAIN.invokeExact(words, snapshot, 0L);
    }
}
