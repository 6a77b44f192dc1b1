package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.LineDriver;
import dev.gpureactor.backend.LineVendor;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.PrimaryContexts;
import dev.gpureactor.backend.StoreSupport;
import dev.gpureactor.backend.StreamCalls;
import dev.gpureactor.backend.WordPark;
import dev.gpureactor.backend.cuda.ffi.cuCtxCreate_v4_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxDestroy_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxGetCurrent_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxGetDevice_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxPopCurrent_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxPushCurrent_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxSetCurrent_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGetAttribute_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGetCount_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGetName_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGet_fn;
import dev.gpureactor.backend.cuda.ffi.cuDevicePrimaryCtxRelease_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuDevicePrimaryCtxRetain_fn;
import dev.gpureactor.backend.cuda.ffi.cuDevicePrimaryCtxSetFlags_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuDriverGetVersion_fn;
import dev.gpureactor.backend.cuda.ffi.cuGetErrorName_fn;
import dev.gpureactor.backend.cuda.ffi.cuGetErrorString_fn;
import dev.gpureactor.backend.cuda.ffi.cuInit_fn;
import dev.gpureactor.backend.cuda.ffi.cuLaunchHostFunc_fn;
import dev.gpureactor.backend.cuda.ffi.cuLaunchKernel_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemFreeHost_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemHostAlloc_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemHostGetDevicePointer_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemsetD8Async_fn;
import dev.gpureactor.backend.cuda.ffi.cuModuleGetFunction_fn;
import dev.gpureactor.backend.cuda.ffi.cuModuleLoadData_fn;
import dev.gpureactor.backend.cuda.ffi.cuModuleUnload_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamCreate_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamDestroy_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamGetCtx_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamQuery_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamSynchronize_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamWaitValue64_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamWriteValue64_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuda_ffi_h;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.park.NativeLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The CUDA driver API ({@code libcuda.so.1}) over FFM: the typed layer over the jextract-generated
 * {@link dev.gpureactor.backend.cuda.ffi} ({@code scripts/jextract.sh}, from {@code native/ffi/cuda_ffi.h}
 * over {@code cuda.h}, CUDA 13.0). Every descriptor and constant comes from there; each raw method calls the
 * generated {@code invoke(address, ...)} with the address resolved in the library this driver was loaded
 * from ({@link DriverBinding}), so the library stays chosen at run time.
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
 * driver without {@code cuStreamWriteValue64_v2} still answers queries).
 *
 * <p>Each raw method ({@code cuX(...)}) returns the {@code CUresult}; the helpers below them turn a
 * nonzero status into a coded {@link ErrorCode#Backend} error with the driver's error name and text.
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

    // cuda.h: enum cudaError_enum (the values this library tests for)
    public static final int CUDA_SUCCESS = cuda_ffi_h.CUDA_SUCCESS();
    public static final int CUDA_ERROR_INVALID_VALUE = cuda_ffi_h.CUDA_ERROR_INVALID_VALUE();
    public static final int CUDA_ERROR_OUT_OF_MEMORY = cuda_ffi_h.CUDA_ERROR_OUT_OF_MEMORY();
    public static final int CUDA_ERROR_NOT_INITIALIZED = cuda_ffi_h.CUDA_ERROR_NOT_INITIALIZED();
    public static final int CUDA_ERROR_INVALID_CONTEXT = cuda_ffi_h.CUDA_ERROR_INVALID_CONTEXT();
    public static final int CUDA_ERROR_NOT_READY = cuda_ffi_h.CUDA_ERROR_NOT_READY();
    public static final int CUDA_ERROR_LAUNCH_FAILED = cuda_ffi_h.CUDA_ERROR_LAUNCH_FAILED();
    public static final int CUDA_ERROR_NOT_SUPPORTED = cuda_ffi_h.CUDA_ERROR_NOT_SUPPORTED();
    /** The image has no SASS for this GPU and no PTX the driver can compile for it. */
    public static final int CUDA_ERROR_NO_BINARY_FOR_GPU = cuda_ffi_h.CUDA_ERROR_NO_BINARY_FOR_GPU();
    // cuda.h: cuMemHostAlloc flags
    public static final int CU_MEMHOSTALLOC_PORTABLE = cuda_ffi_h.CU_MEMHOSTALLOC_PORTABLE();
    public static final int CU_MEMHOSTALLOC_DEVICEMAP = cuda_ffi_h.CU_MEMHOSTALLOC_DEVICEMAP();
    /** Never used for a line: its memory bypasses the CPU caches, so no monitor would see the store. */
    public static final int CU_MEMHOSTALLOC_WRITECOMBINED = cuda_ffi_h.CU_MEMHOSTALLOC_WRITECOMBINED();
    // cuda.h: enum CUdevice_attribute_enum (stream memory operations, legacy and current numbers)
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 = cuda_ffi_h.CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1();
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 = cuda_ffi_h.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1();
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS = cuda_ffi_h.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS();
    // cuda.h: stream flags and special handles
    public static final int CU_STREAM_DEFAULT = cuda_ffi_h.CU_STREAM_DEFAULT();
    public static final int CU_STREAM_NON_BLOCKING = cuda_ffi_h.CU_STREAM_NON_BLOCKING();
    public static final long CU_STREAM_LEGACY = 0x1;
    public static final long CU_STREAM_PER_THREAD = 0x2;
    public static final int CU_STREAM_WRITE_VALUE_DEFAULT = cuda_ffi_h.CU_STREAM_WRITE_VALUE_DEFAULT();
    /** cuda.h: wait until {@code (int64_t)(*addr - value) >= 0} (wrapping order, as a descriptor is reached). */
    public static final int CU_STREAM_WAIT_VALUE_GEQ = cuda_ffi_h.CU_STREAM_WAIT_VALUE_GEQ();
    // cuda.h: CUctx_flags, the scheduling of a thread blocked in a synchronize call
    public static final int CU_CTX_SCHED_AUTO = cuda_ffi_h.CU_CTX_SCHED_AUTO();
    public static final int CU_CTX_SCHED_SPIN = cuda_ffi_h.CU_CTX_SCHED_SPIN();
    public static final int CU_CTX_SCHED_YIELD = cuda_ffi_h.CU_CTX_SCHED_YIELD();
    public static final int CU_CTX_SCHED_BLOCKING_SYNC = cuda_ffi_h.CU_CTX_SCHED_BLOCKING_SYNC();

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

    private CudaDriver(NativeLibrary lib) {
        super("cuda", lib, CudaCall.class, CUDA_SUCCESS);
    }

    /** The library named by {@value #LIBRARY_PROPERTY}, or {@value #DEFAULT_LIBRARY}. */
    public static String configuredLibrary() {
        return System.getProperty(LIBRARY_PROPERTY, DEFAULT_LIBRARY);
    }

    /** The driver from {@link #configuredLibrary()}. */
    public static CudaDriver load() {
        return load(configuredLibrary());
    }

    /**
     * The driver in the library at a path (containing {@code /}) or of a loader name; opened once.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library
     */
    public static CudaDriver load(String pathOrName) {
        return DriverBinding.once(DRIVERS, pathOrName, CudaDriver::new);
    }

    /** Every bound function and its exact descriptor, in header order. */
    public static Map<String, FunctionDescriptor> functions() { return FUNCTIONS; }

    // ------------------------------------------------------------------ raw entry points (CUresult)

    public int cuInit(int Flags) {
        return cuInit_fn.invoke(need(CudaCall.cuInit), Flags);
    }

    public int cuDriverGetVersion(MemorySegment driverVersion) {
        return cuDriverGetVersion_fn.invoke(need(CudaCall.cuDriverGetVersion), driverVersion);
    }

    public int cuGetErrorName(int error, MemorySegment pStr) {
        return cuGetErrorName_fn.invoke(need(CudaCall.cuGetErrorName), error, pStr);
    }

    public int cuGetErrorString(int error, MemorySegment pStr) {
        return cuGetErrorString_fn.invoke(need(CudaCall.cuGetErrorString), error, pStr);
    }

    public int cuDeviceGetCount(MemorySegment count) {
        return cuDeviceGetCount_fn.invoke(need(CudaCall.cuDeviceGetCount), count);
    }

    public int cuDeviceGet(MemorySegment device, int ordinal) {
        return cuDeviceGet_fn.invoke(need(CudaCall.cuDeviceGet), device, ordinal);
    }

    public int cuDeviceGetName(MemorySegment name, int len, int dev) {
        return cuDeviceGetName_fn.invoke(need(CudaCall.cuDeviceGetName), name, len, dev);
    }

    public int cuDeviceGetAttribute(MemorySegment pi, int attrib, int dev) {
        return cuDeviceGetAttribute_fn.invoke(need(CudaCall.cuDeviceGetAttribute), pi, attrib, dev);
    }

    public int cuDevicePrimaryCtxRetain(MemorySegment pctx, int dev) {
        return cuDevicePrimaryCtxRetain_fn.invoke(need(CudaCall.cuDevicePrimaryCtxRetain), pctx, dev);
    }

    public int cuDevicePrimaryCtxRelease_v2(int dev) {
        return cuDevicePrimaryCtxRelease_v2_fn.invoke(need(CudaCall.cuDevicePrimaryCtxRelease_v2), dev);
    }

    /** The primary context's flags ({@code CU_CTX_SCHED_*}); since CUDA 11 also while it is active. */
    public int cuDevicePrimaryCtxSetFlags_v2(int dev, int flags) {
        return cuDevicePrimaryCtxSetFlags_v2_fn.invoke(need(CudaCall.cuDevicePrimaryCtxSetFlags_v2), dev, flags);
    }

    public int cuCtxCreate_v4(MemorySegment pctx, MemorySegment ctxCreateParams, int flags, int dev) {
        return cuCtxCreate_v4_fn.invoke(need(CudaCall.cuCtxCreate_v4), pctx, ctxCreateParams, flags, dev);
    }

    public int cuCtxDestroy_v2(MemorySegment ctx) {
        return cuCtxDestroy_v2_fn.invoke(need(CudaCall.cuCtxDestroy_v2), ctx);
    }

    public int cuCtxGetCurrent(MemorySegment pctx) {
        return cuCtxGetCurrent_fn.invoke(need(CudaCall.cuCtxGetCurrent), pctx);
    }

    public int cuCtxSetCurrent(MemorySegment ctx) {
        return cuCtxSetCurrent_fn.invoke(need(CudaCall.cuCtxSetCurrent), ctx);
    }

    public int cuCtxPushCurrent_v2(MemorySegment ctx) {
        return cuCtxPushCurrent_v2_fn.invoke(need(CudaCall.cuCtxPushCurrent_v2), ctx);
    }

    public int cuCtxPopCurrent_v2(MemorySegment pctx) {
        return cuCtxPopCurrent_v2_fn.invoke(need(CudaCall.cuCtxPopCurrent_v2), pctx);
    }

    public int cuCtxGetDevice(MemorySegment device) {
        return cuCtxGetDevice_fn.invoke(need(CudaCall.cuCtxGetDevice), device);
    }

    public int cuMemHostAlloc(MemorySegment pp, long bytesize, int Flags) {
        return cuMemHostAlloc_fn.invoke(need(CudaCall.cuMemHostAlloc), pp, bytesize, Flags);
    }

    public int cuMemHostGetDevicePointer_v2(MemorySegment pdptr, MemorySegment p, int Flags) {
        return cuMemHostGetDevicePointer_v2_fn.invoke(need(CudaCall.cuMemHostGetDevicePointer_v2), pdptr, p, Flags);
    }

    public int cuMemFreeHost(MemorySegment p) {
        return cuMemFreeHost_fn.invoke(need(CudaCall.cuMemFreeHost), p);
    }

    public int cuStreamCreate(MemorySegment phStream, int Flags) {
        return cuStreamCreate_fn.invoke(need(CudaCall.cuStreamCreate), phStream, Flags);
    }

    public int cuStreamDestroy_v2(MemorySegment hStream) {
        return cuStreamDestroy_v2_fn.invoke(need(CudaCall.cuStreamDestroy_v2), hStream);
    }

    public int cuStreamGetCtx(MemorySegment hStream, MemorySegment pctx) {
        return cuStreamGetCtx_fn.invoke(need(CudaCall.cuStreamGetCtx), hStream, pctx);
    }

    public int cuStreamQuery(MemorySegment hStream) {
        return cuStreamQuery_fn.invoke(need(CudaCall.cuStreamQuery), hStream);
    }

    public int cuStreamSynchronize(MemorySegment hStream) {
        return cuStreamSynchronize_fn.invoke(need(CudaCall.cuStreamSynchronize), hStream);
    }

    public int cuMemsetD8Async(long dstDevice, byte uc, long N, MemorySegment hStream) {
        return cuMemsetD8Async_fn.invoke(need(CudaCall.cuMemsetD8Async), dstDevice, uc, N, hStream);
    }

    public int cuLaunchHostFunc(MemorySegment hStream, MemorySegment fn, MemorySegment userData) {
        return cuLaunchHostFunc_fn.invoke(need(CudaCall.cuLaunchHostFunc), hStream, fn, userData);
    }

    public int cuModuleLoadData(MemorySegment module, MemorySegment image) {
        return cuModuleLoadData_fn.invoke(need(CudaCall.cuModuleLoadData), module, image);
    }

    public int cuModuleUnload(MemorySegment hmod) {
        return cuModuleUnload_fn.invoke(need(CudaCall.cuModuleUnload), hmod);
    }

    public int cuModuleGetFunction(MemorySegment hfunc, MemorySegment hmod, MemorySegment name) {
        return cuModuleGetFunction_fn.invoke(need(CudaCall.cuModuleGetFunction), hfunc, hmod, name);
    }

    public int cuLaunchKernel(MemorySegment f, int gridDimX, int gridDimY, int gridDimZ, int blockDimX, int blockDimY, int blockDimZ,
                              int sharedMemBytes, MemorySegment hStream, MemorySegment kernelParams, MemorySegment extra) {
        return cuLaunchKernel_fn.invoke(need(CudaCall.cuLaunchKernel), f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
    }

    /** The store behind the stream's work; flags {@link #CU_STREAM_WRITE_VALUE_DEFAULT} order earlier work. */
    public int cuStreamWriteValue64_v2(MemorySegment stream, long addr, long value, int flags) {
        return cuStreamWriteValue64_v2_fn.invoke(need(CudaCall.cuStreamWriteValue64_v2), stream, addr, value, flags);
    }

    /** The stream stands still until the word at {@code addr} passes the test of {@code flags} ({@link #CU_STREAM_WAIT_VALUE_GEQ}). */
    public int cuStreamWaitValue64_v2(MemorySegment stream, long addr, long value, int flags) {
        return cuStreamWaitValue64_v2_fn.invoke(need(CudaCall.cuStreamWaitValue64_v2), stream, addr, value, flags);
    }

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
            int rc = name ? cuGetErrorName(status, out) : cuGetErrorString(status, out);
            String s = rc == CUDA_SUCCESS ? NativeLibrary.cString(out.get(ADDRESS, 0)) : null;
            return s != null ? s : fallback;
        }
    }

    /** {@code cuInit(0)}, once per driver. */
    public void ensureInitialized() {
        if (initialized) return;
        synchronized (this) {
            if (initialized) return;
            check("cuInit", cuInit(0));
            initialized = true;
        }
    }

    public int driverVersion() {
        return outInt("cuDriverGetVersion", this::cuDriverGetVersion);
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
        return outInt("cuDeviceGetCount", this::cuDeviceGetCount);
    }

    /** The {@code CUdevice} of an ordinal. */
    @Override
    public int device(int ordinal) {
        return outInt("cuDeviceGet", d -> cuDeviceGet(d, ordinal));
    }

    @Override
    public String deviceName(int device) {
        return outString("cuDeviceGetName", 256, name -> cuDeviceGetName(name, 256, device));
    }

    /** An attribute's value; empty when this driver does not know the attribute ({@code CUDA_ERROR_INVALID_VALUE}). */
    public OptionalInt attribute(int attribute, int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            int rc = cuDeviceGetAttribute(v, attribute, device);
            if (rc == CUDA_ERROR_INVALID_VALUE) return OptionalInt.empty();
            check("cuDeviceGetAttribute", rc);
            return OptionalInt.of(v.get(JAVA_INT, 0));
        }
    }

    /** The device of the calling thread's current context ({@code cuCtxGetDevice}). */
    @Override
    public int currentDevice() {
        return outInt("cuCtxGetDevice", this::cuCtxGetDevice);
    }

    /** The calling thread's current context, 0 for none. */
    public long currentContext() {
        return outAddress("cuCtxGetCurrent", this::cuCtxGetCurrent);
    }

    public void setCurrent(long context) {
        check("cuCtxSetCurrent", cuCtxSetCurrent(MemorySegment.ofAddress(context)));
    }

    public void pushCurrent(long context) {
        check("cuCtxPushCurrent_v2", cuCtxPushCurrent_v2(MemorySegment.ofAddress(context)));
    }

    public long popCurrent() {
        return outAddress("cuCtxPopCurrent_v2", this::cuCtxPopCurrent_v2);
    }

    /** Retains the device's primary context and returns it. */
    @Override
    public long primaryContextRetain(int device) {
        return outAddress("cuDevicePrimaryCtxRetain", c -> cuDevicePrimaryCtxRetain(c, device));
    }

    /** Sets the primary context's flags, e.g. {@link #CU_CTX_SCHED_BLOCKING_SYNC}. */
    public void primaryContextSetFlags(int device, int flags) {
        check("cuDevicePrimaryCtxSetFlags_v2", cuDevicePrimaryCtxSetFlags_v2(device, flags));
    }

    @Override
    public void primaryContextRelease(int device) {
        check("cuDevicePrimaryCtxRelease_v2", cuDevicePrimaryCtxRelease_v2(device));
    }

    /** A new stream of the current context. */
    public long streamCreate(int flags) {
        return outAddress("cuStreamCreate", st -> cuStreamCreate(st, flags));
    }

    public void streamDestroy(long stream) {
        check("cuStreamDestroy_v2", cuStreamDestroy_v2(MemorySegment.ofAddress(stream)));
    }

    /** The context of a stream ({@code cuStreamGetCtx}); for the null stream, the current context. */
    public long streamContext(long stream) {
        return outAddress("cuStreamGetCtx", c -> cuStreamGetCtx(MemorySegment.ofAddress(stream), c));
    }

    /** Page-locked host memory ({@code cuMemHostAlloc}); returns the host address. */
    public long memHostAlloc(long bytes, int flags) {
        return outAddress("cuMemHostAlloc", p -> cuMemHostAlloc(p, bytes, flags));
    }

    /** The device address of mapped host memory ({@code cuMemHostGetDevicePointer_v2}, flags 0). */
    public long memHostDevicePointer(long host) {
        return outLong("cuMemHostGetDevicePointer_v2", d -> cuMemHostGetDevicePointer_v2(d, MemorySegment.ofAddress(host), 0));
    }

    public void memFreeHost(long host) {
        check("cuMemFreeHost", cuMemFreeHost(MemorySegment.ofAddress(host)));
    }

    // ------------------------------------------------------------------ stream calls (current context)

    /** {@code cuStreamCreate(CU_STREAM_NON_BLOCKING)}. */
    @Override
    public CuStream newStream() { return CuStream.ofRaw(streamCreate(CU_STREAM_NON_BLOCKING)); }

    @Override
    public int synchronizeStatus(CuStream stream) { return cuStreamSynchronize(stream.segment()); }

    @Override
    public void destroyStream(CuStream stream) { streamDestroy(stream.handle()); }

    @Override
    public void launchHostFunction(CuStream stream, MemorySegment fn, MemorySegment userData) {
        check("cuLaunchHostFunc", cuLaunchHostFunc(stream.segment(), fn, userData));
    }

    /** {@code cuMemsetD8Async}. */
    @Override
    public void fillAsync(CuStream stream, long deviceAddress, byte value, long bytes) {
        check("cuMemsetD8Async", cuMemsetD8Async(deviceAddress, value, bytes, stream.segment()));
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
