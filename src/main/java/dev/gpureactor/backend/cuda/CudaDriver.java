package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.cuda.raw.CudaCall;
import dev.gpureactor.backend.LineDriver;
import dev.gpureactor.backend.LineVendor;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.PrimaryContexts;
import dev.gpureactor.backend.StoreSupport;
import dev.gpureactor.backend.StreamCalls;
import dev.gpureactor.backend.WordPark;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.loader.NativeLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

import static dev.gpureactor.backend.cuda.raw.CudaRaw.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The CUDA driver API ({@code libcuda.so.1}) over FFM, as checked calls: each runs a raw call of the
 * non-exported {@code backend.cuda.raw.CudaRaw} (the jextract-generated {@code invoke} of {@code
 * backend.cuda.ffi}, from {@code native/ffi/cuda_ffi.h} over {@code cuda.h}, CUDA 13.0, at the address
 * resolved in the library this driver was loaded from), so the library stays chosen at run time.
 *
 * <p>Symbols are the ABI names {@code cuda.h} binds its API names to ({@code cuMemHostGetDevicePointer}
 * is {@code cuMemHostGetDevicePointer_v2}, {@code cuStreamWriteValue64} is {@code
 * cuStreamWriteValue64_v2}, ...). The legacy {@code cuStreamWriteValue64} (v1) is deliberately not
 * bound. The stand-in driver's {@code native/standin/standin_cuda.h} declares the same prototypes;
 * a test checks every descriptor here against it, and the native build checks that header against
 * the real {@code cuda.h}.
 *
 * <p>The library comes from the system property {@value #LIBRARY_PROPERTY} (default {@value
 * #DEFAULT_LIBRARY}). A missing library is {@link ErrorCode#NativeUnavailable} naming it; a missing
 * symbol is the same error naming the symbol, raised when that function is first needed (so a
 * driver without {@code cuStreamWriteValue64_v2} still answers queries). A call that fails is a coded
 * {@link ErrorCode#Backend} error with the driver's error name and text.
 *
 * <p>It is the CUDA {@link LineVendor}: {@code MappedLine.create(cuda)} makes a line of the current
 * context's device, whose ports are {@link CudaPort}s; and its {@link StreamCalls} drive streams of the
 * current context.
 */
public final class CudaDriver extends DriverBinding<CudaCall> implements LineVendor<CuStream, CudaPort>, StreamCalls<CuStream>, PrimaryContexts {
    /** The system property naming the library (path or loader name). */
    public static final String LIBRARY_PROPERTY = "gar.cuda.library";
    /** The driver's loader name. */
    public static final String DEFAULT_LIBRARY = "libcuda.so.1";

    /**
     * Every entry point a line needs. A driver without one of them cannot make lines ({@link
     * MappedLine#create} fails with {@code NativeUnavailable} naming it), though {@link CudaPort#queryOnly}
     * still works.
     */
    public static final List<String> LINE_FUNCTIONS = List.of(
            "cuInit", "cuGetErrorName", "cuGetErrorString", "cuCtxGetDevice", "cuDevicePrimaryCtxRetain",
            "cuDevicePrimaryCtxRelease_v2", "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2", "cuDeviceGetAttribute",
            "cuMemHostAlloc", "cuMemHostGetDevicePointer_v2", "cuMemFreeHost", "cuStreamGetCtx", "cuStreamQuery",
            "cuStreamSynchronize", "cuStreamWriteValue64_v2");
    /** Every entry point a port without a line needs ({@link CudaPort#queryOnly}). */
    public static final List<String> QUERY_FUNCTIONS = List.of("cuStreamQuery", "cuStreamSynchronize", "cuGetErrorName", "cuGetErrorString");

    private static final Map<String, FunctionDescriptor> FUNCTIONS = DriverBinding.descriptors(CudaCall.class);

    private static final ConcurrentHashMap<String, CudaDriver> DRIVERS = new ConcurrentHashMap<>();

    private volatile boolean initialized;

    private CudaDriver(String library) {
        super("cuda", library, CudaCall.class, CUDA_SUCCESS);
    }

    /** {@return the library named by {@value #LIBRARY_PROPERTY}, or {@value #DEFAULT_LIBRARY}} */
    public static String configuredLibrary() {
        return System.getProperty(LIBRARY_PROPERTY, DEFAULT_LIBRARY);
    }

    /** {@return the driver from {@link #configuredLibrary()}} */
    public static CudaDriver load() {
        return load(configuredLibrary());
    }

    /**
     * {@return the driver in the library at a path (containing {@code /}) or of a loader name; opened once}
     *
     * @param pathOrName a path (containing {@code /}) or a loader name
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library
     */
    public static CudaDriver load(String pathOrName) {
        return DriverBinding.once(DRIVERS, pathOrName, CudaDriver::new);
    }

    /** {@return every bound function and its exact descriptor, in header order} */
    public static Map<String, FunctionDescriptor> functions() { return FUNCTIONS; }


    // ------------------------------------------------------------------ checked helpers

    /** The driver's name for a status ({@code cuGetErrorName}), or "CUresult n" when it has none. */
    @Override
    public String errorName(int status) {
        return text(status, true);
    }

    /** The driver's description of a status ({@code cuGetErrorString}), or "unknown error" when it has none. */
    @Override
    public String errorString(int status) {
        return text(status, false);
    }

    private String text(int status, boolean name) {
        String fallback = name ? "CUresult " + status : "unknown error";
        if (!has(name ? CudaCall.cuGetErrorName : CudaCall.cuGetErrorString)) return fallback;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = name ? cuGetErrorName(this, status, out) : cuGetErrorString(this, status, out);
            String s = rc == CUDA_SUCCESS ? NativeLibrary.cString(out.get(ADDRESS, 0)) : null;
            return s != null ? s : fallback;
        }
    }

    /** {@code cuInit(0)}, once per driver. */
    public void ensureInitialized() {
        if (initialized) return;
        synchronized (this) {
            if (initialized) return;
            check("cuInit", cuInit(this, 0));
            initialized = true;
        }
    }

    /** {@return the driver's version number ({@code cuDriverGetVersion}: major·1000 + minor·10)} */
    public int driverVersion() {
        return outInt("cuDriverGetVersion", o -> cuDriverGetVersion(this, o));
    }

    /** {@code cuInit(0)} and the driver's version ("driver 13.0"). */
    @Override
    protected String probeFound() {
        ensureInitialized();
        int version = driverVersion();
        return "driver " + version / 1000 + "." + version % 1000 / 10;
    }

    @Override
    protected String cannotRun(ReactorException e) {
        return "the library loaded but the driver cannot run: " + e.getMessage();
    }

    @Override
    public List<String> lineFunctions() { return LINE_FUNCTIONS; }

    @Override
    public int deviceCount() {
        return outInt("cuDeviceGetCount", o -> cuDeviceGetCount(this, o));
    }

    /** The {@code CUdevice} of an ordinal. */
    @Override
    public int device(int ordinal) {
        return outInt("cuDeviceGet", d -> cuDeviceGet(this, d, ordinal));
    }

    @Override
    public String deviceName(int device) {
        return outString("cuDeviceGetName", 256, name -> cuDeviceGetName(this, name, 256, device));
    }

    /**
     * {@return an attribute's value; empty when this driver does not know the attribute ({@code
     * CUDA_ERROR_INVALID_VALUE})}
     *
     * @param attribute the attribute
     * @param device the device
     */
    public OptionalInt attribute(int attribute, int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            int rc = cuDeviceGetAttribute(this, v, attribute, device);
            if (rc == CUDA_ERROR_INVALID_VALUE) return OptionalInt.empty();
            check("cuDeviceGetAttribute", rc);
            return OptionalInt.of(v.get(JAVA_INT, 0));
        }
    }

    /** The device of the calling thread's current context ({@code cuCtxGetDevice}). */
    @Override
    public int currentDevice() {
        return outInt("cuCtxGetDevice", o -> cuCtxGetDevice(this, o));
    }

    /** {@return the calling thread's current context, 0 for none} */
    public long currentContext() {
        return outAddress("cuCtxGetCurrent", o -> cuCtxGetCurrent(this, o));
    }

    /**
     * Makes {@code context} the calling thread's current one ({@code cuCtxSetCurrent}; 0 for none).
     *
     * @param context the context
     */
    public void setCurrent(long context) {
        check("cuCtxSetCurrent", cuCtxSetCurrent(this, MemorySegment.ofAddress(context)));
    }

    /**
     * Pushes {@code context} on the calling thread's stack ({@code cuCtxPushCurrent_v2}).
     *
     * @param context the context
     */
    public void pushCurrent(long context) {
        check("cuCtxPushCurrent_v2", cuCtxPushCurrent_v2(this, MemorySegment.ofAddress(context)));
    }

    /** {@return the context popped off the calling thread's stack ({@code cuCtxPopCurrent_v2})} */
    public long popCurrent() {
        return outAddress("cuCtxPopCurrent_v2", o -> cuCtxPopCurrent_v2(this, o));
    }

    /** Retains the device's primary context and returns it. */
    @Override
    public long primaryContextRetain(int device) {
        return outAddress("cuDevicePrimaryCtxRetain", c -> cuDevicePrimaryCtxRetain(this, c, device));
    }

    /**
     * Sets the primary context's flags, e.g. {@code CU_CTX_SCHED_BLOCKING_SYNC}.
     *
     * @param device the device
     * @param flags the flags
     */
    public void primaryContextSetFlags(int device, int flags) {
        check("cuDevicePrimaryCtxSetFlags_v2", cuDevicePrimaryCtxSetFlags_v2(this, device, flags));
    }

    @Override
    public void primaryContextRelease(int device) {
        check("cuDevicePrimaryCtxRelease_v2", cuDevicePrimaryCtxRelease_v2(this, device));
    }

    /**
     * {@return a new stream of the current context}
     *
     * @param flags the flags
     */
    public long streamCreate(int flags) {
        return outAddress("cuStreamCreate", st -> cuStreamCreate(this, st, flags));
    }

    /**
     * Destroys a stream ({@code cuStreamDestroy_v2}).
     *
     * @param stream the stream's handle
     */
    public void streamDestroy(long stream) {
        check("cuStreamDestroy_v2", cuStreamDestroy_v2(this, MemorySegment.ofAddress(stream)));
    }

    /**
     * {@return the context of a stream ({@code cuStreamGetCtx}); for the null stream, the current context}
     *
     * @param stream the stream
     */
    public long streamContext(long stream) {
        return outAddress("cuStreamGetCtx", c -> cuStreamGetCtx(this, MemorySegment.ofAddress(stream), c));
    }

    /**
     * Page-locked host memory ({@code cuMemHostAlloc}); returns the host address.
     *
     * @param bytes the size in bytes
     * @param flags the flags
     * @return the host address
     */
    public long memHostAlloc(long bytes, int flags) {
        return outAddress("cuMemHostAlloc", p -> cuMemHostAlloc(this, p, bytes, flags));
    }

    /**
     * {@return the device address of mapped host memory ({@code cuMemHostGetDevicePointer_v2}, flags 0)}
     *
     * @param host the host address
     */
    public long memHostDevicePointer(long host) {
        return outLong("cuMemHostGetDevicePointer_v2", d -> cuMemHostGetDevicePointer_v2(this, d, MemorySegment.ofAddress(host), 0));
    }

    /**
     * Frees page-locked host memory ({@code cuMemFreeHost}).
     *
     * @param host the host address
     */
    public void memFreeHost(long host) {
        check("cuMemFreeHost", cuMemFreeHost(this, MemorySegment.ofAddress(host)));
    }

    // ------------------------------------------------------------------ stream calls (current context)

    /** {@code cuStreamCreate(CU_STREAM_NON_BLOCKING)}. */
    @Override
    public CuStream newStream() { return CuStream.ofRaw(streamCreate(CU_STREAM_NON_BLOCKING)); }

    @Override
    public int synchronizeStatus(CuStream stream) { return cuStreamSynchronize(this, stream.segment()); }

    @Override
    public void destroyStream(CuStream stream) { streamDestroy(stream.handle()); }

    @Override
    public void launchHostFunction(CuStream stream, MemorySegment fn, MemorySegment userData) {
        check("cuLaunchHostFunc", cuLaunchHostFunc(this, stream.segment(), fn, userData));
    }

    /** {@code cuMemsetD8Async}. */
    @Override
    public void fillAsync(CuStream stream, long deviceAddress, byte value, long bytes) {
        check("cuMemsetD8Async", cuMemsetD8Async(this, deviceAddress, value, bytes, stream.segment()));
    }

    /** {@code cuMemHostAlloc(DEVICEMAP | PORTABLE)}. */
    @Override
    public long allocMapped(long bytes) { return memHostAlloc(bytes, CudaLines.ALLOC_FLAGS); }

    @Override
    public long mappedDevicePointer(long host) { return memHostDevicePointer(host); }

    @Override
    public void freeMapped(long host) { memFreeHost(host); }

    // ------------------------------------------------------------------ the CUDA line vendor

    /** Checks {@link #LINE_FUNCTIONS}, runs {@code cuInit(0)} once: the table of a line. */
    @Override
    public LineDriver lineDriver() {
        require(LINE_FUNCTIONS);
        ensureInitialized();
        return new CudaLines(this);
    }

    /** The device's stream-memory-ops attributes ({@link StreamMemOps}). */
    @Override
    public StoreSupport storeSupport(int device) {
        StreamMemOps m = StreamMemOps.read(this, device);
        return new StoreSupport(m.usable(), m.detail());
    }

    @Override
    public CudaPort port(MappedLine<CuStream, CudaPort> line, CuStream stream, Slot slot, long target, WordPark park) {
        return new CudaPort(line, stream, slot, target, park);
    }
}
