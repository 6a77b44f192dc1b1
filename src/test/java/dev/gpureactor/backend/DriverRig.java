package dev.gpureactor.backend;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A driver to test lines against (the CUDA and HIP rigs): the stand-in (always; it is what counts) or
 * the real library where one is found. It tracks what a test made through it (streams, gates, mapped
 * pages) and gives it back on close: every gate opened and every hang released first, so no stream
 * stays held, then each stream synchronized and destroyed, then the pages freed.
 *
 * @param <S> the driver's stream handle
 */
@SuppressWarnings("restricted") // FFM: a mapped page the driver allocated is given its size to zero it
public abstract class DriverRig<S extends DriverStream> implements AutoCloseable {
    /** "standin" or "real". */
    public final String kind;
    /** The stand-in's hooks; null on the real library. */
    public final StandinHooks hooks;
    private final StreamCalls<S> calls;
    private final List<S> streams = new ArrayList<>();
    private final List<Long> pages = new ArrayList<>();
    private final List<HostFns.Gate> gates = new ArrayList<>();

    protected DriverRig(String kind, StreamCalls<S> calls, StandinHooks hooks) {
        this.kind = kind;
        this.calls = calls;
        this.hooks = hooks;
        if (hooks != null) hooks.reset();
    }

    // ------------------------------------------------------------------ what a driver's rig may add

    /** Before the streams are destroyed: restores what a test may have changed (CUDA: the current context). */
    protected void beforeTeardown() {}

    /** Gives back what opening the rig took, after the streams and pages; nothing by default. */
    protected void release() {}

    // ------------------------------------------------------------------ shared

    /** The rig of a parameterized test's kind: {@code "standin"} or {@code "real"}. */
    public static <R extends DriverRig<?>> R open(String kind, Supplier<R> standin, Supplier<R> real) {
        return switch (kind) {
            case "standin" -> standin.get();
            case "real" -> real.get();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /**
     * A real library a rig may open, and whether it can be tested here: asked once, then kept (a JVM
     * does not gain a GPU). Racing first askers compute the same answer; the volatile publishes it.
     */
    public static final class RealLibrary {
        public final String library;
        private final IntSupplier deviceCount;
        private volatile Optional<String> unavailable; // null: not asked yet

        /** @param deviceCount loads the library (readied as a rig would) and counts its devices */
        public RealLibrary(String library, IntSupplier deviceCount) {
            this.library = library;
            this.deviceCount = deviceCount;
        }

        /** Why the real library cannot be tested here, or empty when it can. */
        public Optional<String> unavailable() {
            Optional<String> known = unavailable;
            if (known != null) return known;
            Optional<String> why = realUnavailable(library, deviceCount);
            unavailable = why;
            return why;
        }

        /**
         * A JUnit assumption (with the reason) that the real library can be tested here.
         * Why a skip: the "real" half of each parameterized CUDA/HIP test needs a driver and a device,
         * which no build machine of this project has. Where the same behaviour runs: the "standin"
         * half runs the same test body on every build (the stand-in drivers in native/standin); on
         * the GPU machine scripts/gpu-check.sh fails if any CUDA test skips (docs/GPU.md); the real
         * HIP runtime is loaded and queried in CI by HipRealRuntimeTest (it answers "no device").
         */
        public void assume() {
            Optional<String> why = unavailable();
            assumeTrue(why.isEmpty(), () -> why.orElseThrow() + " (the \"standin\" half of this test runs the same body"
                    + " on the stand-in driver in every build; scripts/gpu-check.sh runs the real half on a GPU machine)");
        }
    }

    /**
     * Why the real library cannot be tested here, or empty when it can: no library, one that cannot
     * run, or one that reports no device.
     */
    public static Optional<String> realUnavailable(String library, IntSupplier deviceCount) {
        try {
            return deviceCount.getAsInt() > 0 ? Optional.empty()
                    : Optional.of("skipped: " + library + " found but it reports no device");
        } catch (ReactorException e) {
            return Optional.of(e.code() == ErrorCode.NativeUnavailable
                    ? "skipped: no " + library + " (" + e.getMessage() + ")"
                    : "skipped: " + library + " found but it cannot run (" + e.getMessage() + ")");
        }
    }

    public boolean standinOnly() { return hooks != null; }

    /** A new stream, destroyed on close. */
    public S stream() {
        S s = calls.newStream();
        streams.add(s);
        return s;
    }

    /** A "kernel" that holds the stream until the gate opens (a host function; real and stand-in). */
    public HostFns.Gate gate(S stream) {
        HostFns.Gate g = new HostFns.Gate();
        gates.add(g);
        calls.launchHostFunction(stream, HostFns.STUB, g.userData());
        return g;
    }

    /** Runs {@code body} on the driver's host-function thread, in stream order. */
    public void hostFn(S stream, Runnable body) {
        calls.launchHostFunction(stream, HostFns.STUB, HostFns.register(body));
    }

    /** Zeroed mapped host memory for a payload the device writes; returns the host address. Freed on close. */
    public long mappedPage(long bytes) {
        long host = calls.allocMapped(bytes);
        pages.add(host);
        MemorySegment.ofAddress(host).reinterpret(bytes).fill((byte) 0);
        return host;
    }

    /** The device address of memory from {@link #mappedPage}. */
    public long devicePointer(long host) {
        return calls.mappedDevicePointer(host);
    }

    /** A device-side write of {@code n} bytes of {@code value}, in stream order. */
    public void fill(S stream, long deviceAddress, byte value, long n) {
        calls.fillAsync(stream, deviceAddress, value, n);
    }

    @Override
    public void close() {
        if (hooks != null) hooks.releaseHangs();
        gates.forEach(HostFns.Gate::open);
        beforeTeardown();
        for (S s : streams) {
            calls.synchronizeStatus(s); // a failed stream reports its error: ignored here
            try {
                calls.destroyStream(s);
            } catch (ReactorException ignored) {
                // teardown goes on: a stream the driver will not destroy fails no test
            }
        }
        pages.forEach(calls::freeMapped);
        release();
    }

    @Override
    public String toString() { return kind; }
}
