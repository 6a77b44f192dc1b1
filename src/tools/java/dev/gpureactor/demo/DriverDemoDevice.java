package dev.gpureactor.demo;

import dev.gpureactor.backend.DriverPort;
import dev.gpureactor.backend.DriverStream;
import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.LineVendor;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.StreamCalls;
import dev.gpureactor.backend.cuda.CuStream;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.cuda.CudaKernels;
import dev.gpureactor.backend.cuda.CudaPort;
import dev.gpureactor.backend.cuda.StreamMemOps;
import dev.gpureactor.backend.hip.HipPort;
import dev.gpureactor.backend.hip.HipRuntime;
import dev.gpureactor.backend.hip.HipStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The demo on a real driver binding (CUDA or HIP; the stand-in drivers of {@code native/standin}
 * answer the same calls). Java cannot launch a kernel here, so the "work" of {@code d} on a stream
 * is what the binding can queue: a <b>host function</b> ({@code cuLaunchHostFunc} /
 * {@code hipLaunchHostFunc}) that holds the stream until {@code d} after it was queued. A driver
 * may run the host functions of all streams on one thread, so the host function waits for a
 * deadline, not for a duration: three streams still finish at 2, 4 and 6 ms. Behind it a
 * <b>device-side write</b> of the payload ({@code cuMemsetD8Async} / {@code hipMemsetD8Async}, one
 * byte into mapped host memory), then the store of the sequence number into the line ({@code
 * cuStreamWriteValue64_v2} / {@code hipStreamWriteValue64} through the port). The woken virtual
 * thread reads the payload back from that memory.
 *
 * <p>Every {@link #streams(int)} call gets fresh streams, eight to a fresh {@code MappedLine}, and a
 * fresh mapped page for their payloads. {@link #close()} synchronizes every stream, retires it from
 * its line and destroys it, closes the lines, frees the pages, and gives back what {@code open} took
 * (CUDA: the primary context it made current; HIP: the thread's device).
 *
 * @param <S> the binding's stream handle
 * @param <P> the binding's port
 */
@SuppressWarnings("restricted") // FFM: the payload page the driver allocated is given its size here
abstract class DriverDemoDevice<S extends DriverStream, P extends DriverPort<S>> implements DemoDevice {
    /** Each stream's payload byte sits in its own 64 bytes of the payload page. */
    private static final long PAYLOAD_STRIDE = 64;
    private static final long PAGE = 4096;

    private record Group<S extends DriverStream, P extends DriverPort<S>>(MappedLine<S, P> line, List<S> streams) {}

    private final String backend;
    private final LineVendor<S, P> vendor;
    private final StreamCalls<S> calls;
    private final List<String> description;
    protected final Consumer<Warning> warnings;
    private final List<Group<S, P>> groups = new ArrayList<>();
    private final List<Long> pages = new ArrayList<>();
    /** The host functions' bodies and their stub, freed at close once every stream is synchronized. */
    private final HostBodies hostBodies = new HostBodies();

    DriverDemoDevice(String backend, LineVendor<S, P> vendor, StreamCalls<S> calls, List<String> description,
                     Consumer<Warning> warnings) {
        this.backend = backend;
        this.vendor = vendor;
        this.calls = calls;
        this.description = List.copyOf(description);
        this.warnings = warnings;
    }

    // ------------------------------------------------------------------ what each binding supplies

    /** Queues device work of {@code nanos} before the host function that notes when it ended; none by default. */
    void launchWork(S stream, long nanos) {}

    /** Queues a one-byte device-side write of {@code value} to {@code deviceAddress}: the driver's fill by default. */
    void memsetByte(S stream, long deviceAddress, byte value) {
        calls.fillAsync(stream, deviceAddress, value, 1);
    }

    /** Gives back what {@code open} took. */
    abstract void release();

    // ------------------------------------------------------------------ the shared part

    @Override
    public List<String> description() { return description; }

    @Override
    public String workDoneLabel() { return "work done at"; }

    @Override
    public synchronized List<DemoDevice.Stream> streams(int n) {
        if (n < 1) throw new ReactorException(ErrorCode.InvalidArgument, "streams", n, "1 or more");
        long bytes = Math.max(PAGE, (n * PAYLOAD_STRIDE + PAGE - 1) / PAGE * PAGE);
        long host = calls.allocMapped(bytes);
        pages.add(host);
        MemorySegment payloads = MemorySegment.ofAddress(host).reinterpret(bytes);
        payloads.fill((byte) 0);
        long device = calls.mappedDevicePointer(host);
        List<DemoDevice.Stream> out = new ArrayList<>(n);
        for (int first = 0; first < n; first += CompletionLine.WORDS) {
            Group<S, P> g = new Group<>(MappedLine.create(vendor, LineOptions.defaults().withWarnings(warnings)), new ArrayList<>());
            groups.add(g);
            for (int k = first; k < Math.min(n, first + CompletionLine.WORDS); k++) {
                S s = calls.newStream();
                g.streams().add(s);
                out.add(new StreamOnLine(g.line(), s, Slot.of(k - first),
                        payloads.asSlice(k * PAYLOAD_STRIDE, 1), device + k * PAYLOAD_STRIDE));
            }
        }
        return out;
    }

    private final class StreamOnLine implements DemoDevice.Stream {
        private final MappedLine<S, P> line;
        private final S stream;
        private final Slot slot;
        private final MemorySegment payloadHost;
        private final long payloadDevice;
        private long seq;

        StreamOnLine(MappedLine<S, P> line, S stream, Slot slot, MemorySegment payloadHost, long payloadDevice) {
            this.line = line;
            this.stream = stream;
            this.slot = slot;
            this.payloadHost = payloadHost;
            this.payloadDevice = payloadDevice;
        }

        @Override
        public synchronized Signal signal(Duration work, int payload) {
            if (payload < 0 || payload > 255) {
                throw new ReactorException(ErrorCode.InvalidArgument, "payload", payload, "0..255 (one byte, written by " + memsetCall() + ")");
            }
            AtomicLong done = new AtomicLong();
            hold(work, done);
            memsetByte(stream, payloadDevice, (byte) payload);
            P port = store();
            return new Signal(port.descriptor().orElseThrow(), port,
                    () -> Byte.toUnsignedInt(payloadHost.get(JAVA_BYTE, 0)), done::get);
        }

        @Override
        public synchronized Signal signal(Duration work) {
            hold(work, new AtomicLong());
            P port = store();
            return new Signal(port.descriptor().orElseThrow(), port, null, null);
        }

        /** The host function that holds the stream until {@code work} from now, then notes the time. */
        private void hold(Duration work, AtomicLong done) {
            long deadline = System.nanoTime() + work.toNanos();
            if (work.isZero() || work.isNegative()) {
                done.set(System.nanoTime());
                return;
            }
            MemorySegment user = hostBodies.register(() -> {
                for (long left; (left = deadline - System.nanoTime()) > 0; ) LockSupport.parkNanos(left);
                done.set(System.nanoTime());
            });
            try {
                launchWork(stream, work.toNanos());
                calls.launchHostFunction(stream, hostBodies.stub(), user);
            } catch (RuntimeException e) {
                hostBodies.forget(user);
                throw e;
            }
        }

        private P store() {
            P port = line.port(stream, slot, ++seq);
            port.arm(); // the write-value, right behind the payload write
            return port;
        }
    }

    /** The name of the payload write, for messages. */
    abstract String memsetCall();

    @Override
    public synchronized void close() {
        List<RuntimeException> failures = new ArrayList<>();
        for (Group<S, P> g : groups) for (S s : g.streams()) attempt(failures, () -> calls.synchronizeStatus(s)); // a failed stream's status is ignored
        // A stream that could not be synchronized may still run a host function: its stub then stays (a leak, not a crash).
        boolean quiet = failures.isEmpty();
        for (Group<S, P> g : groups) {
            for (S s : g.streams()) {
                attempt(failures, () -> {
                    // A stream the line cannot retire (it failed) stays alive: the line then leaks its
                    // page with LineLeaked rather than query a destroyed stream.
                    if (g.line().retire(s)) calls.destroyStream(s);
                });
            }
            attempt(failures, g.line()::close);
        }
        for (long p : pages) attempt(failures, () -> calls.freeMapped(p));
        if (quiet) attempt(failures, hostBodies::close);
        attempt(failures, this::release);
        groups.clear();
        pages.clear();
        if (!failures.isEmpty()) {
            RuntimeException first = failures.getFirst();
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
    }

    private static void attempt(List<RuntimeException> failures, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }

    private static List<String> both(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    @Override
    public String toString() { return backend + " demo device"; }

    // ------------------------------------------------------------------ CUDA

    /** Calls the demo makes itself, beyond those of a line. */
    static final List<String> CUDA_CALLS = List.of("cuDriverGetVersion", "cuDeviceGet", "cuDeviceGetName",
            "cuCtxGetCurrent", "cuCtxSetCurrent", "cuStreamCreate", "cuStreamDestroy_v2", "cuLaunchHostFunc", "cuMemsetD8Async");

    /**
     * The CUDA driver named by {@code gar.cuda.library} (default {@code libcuda.so.1}), device 0,
     * its primary context made current on the calling thread (the thread that queues the work).
     */
    static DriverDemoDevice<CuStream, CudaPort> cuda(Consumer<Warning> warnings) {
        CudaDriver cuda = CudaDriver.load();
        cuda.require(both(CudaDriver.LINE_FUNCTIONS, CUDA_CALLS));
        cuda.ensureInitialized();
        int dev = cuda.device(0);
        StreamMemOps memOps = StreamMemOps.read(cuda, dev);
        if (!memOps.usable()) throw new ReactorException(ErrorCode.NoStreamMemOps, "cuda", dev, memOps.detail());
        int version = cuda.driverVersion();
        long previous = cuda.currentContext();
        long primary = cuda.primaryContextRetain(dev);
        CudaKernels kernels = null;
        String noKernels = null;
        try {
            cuda.setCurrent(primary);
            try {
                kernels = CudaKernels.load(cuda); // the jar's fatbin, into the primary context
            } catch (ReactorException e) {
                if (e.code() != ErrorCode.NativeUnavailable) throw e; // a driver that refuses the image is an error
                noKernels = e.getMessage();
            }
        } catch (RuntimeException e) {
            cuda.primaryContextRelease(dev);
            throw e;
        }
        String work = kernels != null
                ? "work: each stream runs the kernel gar_spin_ns for d ms of GPU time (%globaltimer), a host function"
                        + " notes when it ended, the kernel gar_write_byte writes the payload byte into mapped memory and"
                        + " cuStreamWriteValue64_v2 stores the sequence number"
                : "work: no kernel runs (" + noKernels + "); each stream runs a host function (cuLaunchHostFunc) that"
                        + " holds it until d ms after it was queued, then cuMemsetD8Async writes the payload byte into"
                        + " mapped memory and cuStreamWriteValue64_v2 stores the sequence number";
        List<String> description = List.of(
                "device: cuda " + cuda.library() + ", driver " + version / 1000 + "." + version % 1000 / 10
                        + ", device 0 (" + cuda.deviceName(dev) + "), " + memOps.detail(),
                work);
        return new Cuda(cuda, dev, previous, kernels, description, warnings);
    }

    private static final class Cuda extends DriverDemoDevice<CuStream, CudaPort> {
        private final CudaDriver cuda;
        private final int device;
        private final long previousContext;
        private final CudaKernels kernels; // null: the jar has no fatbin, host functions and memset instead

        Cuda(CudaDriver cuda, int device, long previousContext, CudaKernels kernels, List<String> description,
             Consumer<Warning> warnings) {
            super("cuda", cuda, cuda, description, warnings);
            this.cuda = cuda;
            this.device = device;
            this.previousContext = previousContext;
            this.kernels = kernels;
        }

        @Override
        void launchWork(CuStream stream, long nanos) {
            if (kernels != null) kernels.spin(stream, nanos);
        }

        @Override
        void memsetByte(CuStream stream, long deviceAddress, byte value) {
            if (kernels != null) kernels.writeByte(stream, deviceAddress, value);
            else super.memsetByte(stream, deviceAddress, value);
        }

        @Override String memsetCall() { return kernels != null ? "gar_write_byte" : "cuMemsetD8Async"; }

        @Override
        void release() {
            try {
                if (kernels != null) kernels.close(); // after close synchronized and destroyed the streams
            } finally {
                releaseContext();
            }
        }

        private void releaseContext() {
            try {
                cuda.setCurrent(previousContext);
            } finally {
                cuda.primaryContextRelease(device);
            }
        }
    }

    // ------------------------------------------------------------------ HIP

    /** Calls the demo makes itself, beyond those of a line. */
    static final List<String> HIP_CALLS = List.of("hipDeviceGet", "hipDeviceGetName", "hipStreamCreate",
            "hipStreamDestroy", "hipLaunchHostFunc", "hipMemsetD8Async");

    /** The HIP runtime named by {@code gar.hip.library} (default {@code libamdhip64.so}), device 0 made current. */
    static DriverDemoDevice<HipStream, HipPort> hip(Consumer<Warning> warnings) {
        HipRuntime hip = HipRuntime.load();
        hip.require(both(HipRuntime.LINE_FUNCTIONS, HIP_CALLS));
        int previous = hip.currentDevice();
        hip.setDevice(0);
        List<String> description;
        try {
            description = List.of(
                    "device: hip " + hip.library() + ", device 0 (" + hip.deviceName(hip.device(0)) + ")",
                    "work: no kernel runs; each stream runs a host function (hipLaunchHostFunc) that holds it until d ms"
                            + " after it was queued, then hipMemsetD8Async writes the payload byte into mapped memory and"
                            + " hipStreamWriteValue64 stores the sequence number");
        } catch (RuntimeException e) {
            hip.setDevice(previous);
            throw e;
        }
        return new Hip(hip, previous, description, warnings);
    }

    private static final class Hip extends DriverDemoDevice<HipStream, HipPort> {
        private final HipRuntime hip;
        private final int previousDevice;

        Hip(HipRuntime hip, int previousDevice, List<String> description, Consumer<Warning> warnings) {
            super("hip", hip, hip, description, warnings);
            this.hip = hip;
            this.previousDevice = previousDevice;
        }

        @Override String memsetCall() { return "hipMemsetD8Async"; }

        @Override void release() { hip.setDevice(previousDevice); }
    }
}
