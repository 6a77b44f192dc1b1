package dev.gpureactor.bench.gpu;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.cuda.CuStream;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.cuda.CudaPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One stream of device 0's primary context, one {@link MappedLine} it stores into (slot 0), and a
 * mapped <b>go word</b> the stream waits on ({@code cuStreamWaitValue64_v2}, GEQ): the device side of
 * both measurements. The thread that opens the rig gets the primary context as its current context
 * and must be the one that queues work ({@link #waitFor}, {@link #store}) and closes it.
 *
 * <p><b>Ordering.</b> {@link #go} is a release store of the go word: the host's earlier writes (a
 * future's registration) are ordered before the device can see it. The line's word is read with
 * acquire loads ({@code CompletionLine.word}), so a thread that sees sequence number {@code s} sees
 * what the device stored before it.
 *
 * <p><b>Lifetime.</b> The go page is read by the device while a wait is queued, so {@link #close}
 * first releases every queued wait (go = the last sequence number queued), lets the stream settle,
 * and frees the page only then; a stream that does not settle within the bound leaks the page (and
 * the stream) rather than free memory the device may still read.
 */
public final class GpuRig implements AutoCloseable {
    static final Slot SLOT = Slot.of(0);
    private static final VarHandle GO = JAVA_LONG.varHandle();
    private static final long PAGE = 4096;
    private static final long SETTLE_NANOS = 10_000_000_000L;

    /** Every entry point the rig calls itself, beyond a line's. */
    public static final List<String> CALLS = List.of("cuDriverGetVersion", "cuDeviceGet", "cuDeviceGetName",
            "cuCtxGetCurrent", "cuCtxSetCurrent", "cuStreamCreate", "cuStreamDestroy_v2", "cuStreamWaitValue64_v2",
            "cuDevicePrimaryCtxSetFlags_v2");

    private final CudaDriver cuda;
    private final int device;
    private final long previousContext;
    private final long primary;
    private final CuStream stream;
    private final MappedLine<CuStream, CudaPort> line;
    private final long goHost;
    private final long goDevice;
    private final MemorySegment go;
    private final String description;
    private final String blockingSync;
    /** The line's sink may be called from any thread that closes or settles it. */
    private final List<Warning> warnings = new CopyOnWriteArrayList<>();
    /** The last sequence number a wait was queued for; written and read by the opening thread only. */
    private long lastQueued;
    private boolean closed;

    private GpuRig(CudaDriver cuda) {
        this.cuda = cuda;
        List<String> need = new ArrayList<>(CudaDriver.LINE_FUNCTIONS);
        need.addAll(CALLS);
        cuda.require(need);
        cuda.ensureInitialized();
        device = cuda.device(0);
        // Before the first retain, so a synchronizing thread sleeps until the driver's interrupt.
        int rc = CudaRaw.cuDevicePrimaryCtxSetFlags_v2(cuda, device, CudaRaw.CU_CTX_SCHED_BLOCKING_SYNC);
        blockingSync = rc == CudaRaw.CUDA_SUCCESS ? "CU_CTX_SCHED_BLOCKING_SYNC"
                : "driver default (cuDevicePrimaryCtxSetFlags_v2 answered " + cuda.errorName(rc) + ")";
        previousContext = cuda.currentContext();
        primary = cuda.primaryContextRetain(device);
        CuStream s = null;
        MappedLine<CuStream, CudaPort> l = null;
        long page = 0;
        try {
            cuda.setCurrent(primary);
            s = cuda.newStream(); // non-blocking, as the line's store wants
            l = MappedLine.create(cuda, LineOptions.defaults().withWarnings(warnings::add));
            if (!l.stores().usable()) throw new ReactorException(ErrorCode.NoStreamMemOps, "cuda", device, l.stores().detail());
            page = cuda.allocMapped(PAGE);
        } catch (RuntimeException e) {
            if (l != null) l.close();
            if (s != null) CudaRaw.cuStreamDestroy_v2(cuda, s.segment());
            cuda.setCurrent(previousContext);
            cuda.primaryContextRelease(device);
            throw e;
        }
        stream = s;
        line = l;
        goHost = page;
        go = MemorySegment.ofAddress(page).reinterpret(8);
        GO.setRelease(go, 0L, 0L); // driver memory is not zeroed
        goDevice = cuda.mappedDevicePointer(page);
        int version = cuda.driverVersion();
        description = cuda.library() + ", driver " + version / 1000 + "." + version % 1000 / 10
                + ", device 0 (" + cuda.deviceName(device) + "), " + line.stores().detail();
    }

    /** The driver named by {@code gar.cuda.library} (default {@code libcuda.so.1}). */
    public static GpuRig open() {
        return open(CudaDriver.load());
    }

    /** A rig on {@code cuda}, a driver already loaded. */
    public static GpuRig open(CudaDriver cuda) {
        return new GpuRig(cuda);
    }

    /** Whether the library is a stand-in (its file name says so): its numbers say nothing about a GPU. */
    public boolean isStandin() {
        return cuda.library().contains("standin");
    }

    public String description() { return description; }

    /** How a synchronizing thread waits: the primary context's scheduling flag, or why it has the default. */
    public String blockingSync() { return blockingSync; }

    public MappedLine<CuStream, CudaPort> line() { return line; }

    public CuStream stream() { return stream; }

    public CudaDriver driver() { return cuda; }

    public long primaryContext() { return primary; }

    /** The coded warnings of the line so far. */
    public List<Warning> warnings() { return List.copyOf(warnings); }

    /** Queues a wait: the stream stands still until the go word reaches {@code seq} (wrapping order). */
    public void waitFor(long seq) {
        cuda.check("cuStreamWaitValue64_v2",
                CudaRaw.cuStreamWaitValue64_v2(cuda, stream.segment(), goDevice, seq, CudaRaw.CU_STREAM_WAIT_VALUE_GEQ));
        lastQueued = seq;
    }

    /** Queues the store of {@code seq} into slot 0, behind the stream's queued work; returns its armed port. */
    public CudaPort store(long seq) {
        CudaPort port = line.port(stream, SLOT, seq);
        port.arm(); // cuStreamWriteValue64_v2; the reactor's own arm is then a no-op
        return port;
    }

    /** The host's write of the go word (release: what the host wrote before is visible first). Any thread. */
    public void go(long seq) {
        GO.setRelease(go, 0L, seq);
    }

    /** The word of slot 0 (acquire). */
    public long word() {
        return line.line().word(SLOT);
    }

    /** Releases queued waits, settles the stream, then frees the go page and the line, or leaks them. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        go(lastQueued);
        long end = System.nanoTime() + SETTLE_NANOS;
        int rc;
        while ((rc = CudaRaw.cuStreamQuery(cuda, stream.segment())) == CudaRaw.CUDA_ERROR_NOT_READY && System.nanoTime() < end) {
            LockSupport.parkNanos(100_000);
        }
        try {
            if (rc == CudaRaw.CUDA_SUCCESS && line.retire(stream)) {
                cuda.freeMapped(goHost);
                cuda.destroyStream(stream);
            } else {
                // The device may still read the go page: never free it under a queued wait.
                warnings.add(Warning.of(ErrorCode.LineLeaked, "gpu-bench go page", "stream did not settle: " + cuda.errorName(rc)));
            }
            line.close();
        } finally {
            cuda.setCurrent(previousContext);
            cuda.primaryContextRelease(device);
        }
    }
}
