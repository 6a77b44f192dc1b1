package dev.gpureactor.backend.cuda;

import dev.gpureactor.park.NativeLibrary;
import dev.gpureactor.park.NativeLoader;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The CUDA driver API ({@code libcuda.so.1}) over FFM, written by hand in jextract's shape: one
 * {@link MethodHandle} per function, each {@link FunctionDescriptor} exactly the C prototype of
 * {@code cuda.h} (CUDA 13.0): {@code CUresult}, {@code CUdevice}, {@code CUdevice_attribute} and
 * {@code unsigned int} are {@code JAVA_INT}; {@code CUdeviceptr} ({@code unsigned long long}),
 * {@code cuuint64_t} and {@code size_t} are {@code JAVA_LONG}; {@code unsigned char} is {@code
 * JAVA_BYTE}; handles ({@code CUstream}, {@code CUcontext}) and pointers are {@code ADDRESS}.
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
 */
public final class CudaDriver {
    /** The system property naming the library (path or loader name). */
    public static final String LIBRARY_PROPERTY = "gar.cuda.library";
    /** The driver's loader name. */
    public static final String DEFAULT_LIBRARY = "libcuda.so.1";

    // cuda.h: enum cudaError_enum (the values this library tests for)
    public static final int CUDA_SUCCESS = 0;
    public static final int CUDA_ERROR_INVALID_VALUE = 1;
    public static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    public static final int CUDA_ERROR_NOT_INITIALIZED = 3;
    public static final int CUDA_ERROR_INVALID_CONTEXT = 201;
    public static final int CUDA_ERROR_NOT_READY = 600;
    public static final int CUDA_ERROR_LAUNCH_FAILED = 719;
    public static final int CUDA_ERROR_NOT_SUPPORTED = 801;
    // cuda.h: cuMemHostAlloc flags
    public static final int CU_MEMHOSTALLOC_PORTABLE = 0x01;
    public static final int CU_MEMHOSTALLOC_DEVICEMAP = 0x02;
    /** Never used for a line: its memory bypasses the CPU caches, so no monitor would see the store. */
    public static final int CU_MEMHOSTALLOC_WRITECOMBINED = 0x04;
    // cuda.h: enum CUdevice_attribute_enum (stream memory operations, legacy and current numbers)
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 = 92;
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 = 93;
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS = 122;
    // cuda.h: stream flags and special handles
    public static final int CU_STREAM_DEFAULT = 0x0;
    public static final int CU_STREAM_NON_BLOCKING = 0x1;
    public static final long CU_STREAM_LEGACY = 0x1;
    public static final long CU_STREAM_PER_THREAD = 0x2;
    public static final int CU_STREAM_WRITE_VALUE_DEFAULT = 0x0;

    private static final Map<String, FunctionDescriptor> FUNCTIONS;

    static {
        Map<String, FunctionDescriptor> f = new LinkedHashMap<>();
        f.put("cuInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        f.put("cuDriverGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuGetErrorName", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        f.put("cuGetErrorString", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        f.put("cuDeviceGetCount", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        f.put("cuDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        f.put("cuDeviceGetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        f.put("cuDevicePrimaryCtxRetain", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        f.put("cuDevicePrimaryCtxRelease_v2", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        f.put("cuCtxCreate_v4", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT));
        f.put("cuCtxDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuCtxGetCurrent", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuCtxSetCurrent", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuCtxPushCurrent_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuCtxPopCurrent_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuCtxGetDevice", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuMemHostAlloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        f.put("cuMemHostGetDevicePointer_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        f.put("cuMemFreeHost", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuStreamCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        f.put("cuStreamDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuStreamGetCtx", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        f.put("cuStreamQuery", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuStreamSynchronize", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("cuMemsetD8Async", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS));
        f.put("cuLaunchHostFunc", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        f.put("cuStreamWriteValue64_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT));
        FUNCTIONS = Collections.unmodifiableMap(f);
    }

    private static final ConcurrentHashMap<String, CudaDriver> DRIVERS = new ConcurrentHashMap<>();

    private final NativeLibrary lib;
    private final Map<String, MethodHandle> resolved;
    private final List<String> missing;
    private volatile boolean initialized;

    private final MethodHandle cuInit, cuDriverGetVersion, cuGetErrorName, cuGetErrorString, cuDeviceGetCount,
            cuDeviceGet, cuDeviceGetName, cuDeviceGetAttribute, cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRelease_v2,
            cuCtxCreate_v4, cuCtxDestroy_v2, cuCtxGetCurrent, cuCtxSetCurrent, cuCtxPushCurrent_v2, cuCtxPopCurrent_v2,
            cuCtxGetDevice, cuMemHostAlloc, cuMemHostGetDevicePointer_v2, cuMemFreeHost, cuStreamCreate,
            cuStreamDestroy_v2, cuStreamGetCtx, cuStreamQuery, cuStreamSynchronize, cuMemsetD8Async, cuLaunchHostFunc,
            cuStreamWriteValue64_v2;

    private CudaDriver(NativeLibrary lib) {
        this.lib = lib;
        Map<String, MethodHandle> r = new LinkedHashMap<>();
        List<String> absent = new ArrayList<>();
        FUNCTIONS.forEach((name, fd) -> lib.downcall(name, fd).ifPresentOrElse(h -> r.put(name, h), () -> absent.add(name)));
        this.resolved = Collections.unmodifiableMap(r);
        this.missing = List.copyOf(absent);
        cuInit = r.get("cuInit");
        cuDriverGetVersion = r.get("cuDriverGetVersion");
        cuGetErrorName = r.get("cuGetErrorName");
        cuGetErrorString = r.get("cuGetErrorString");
        cuDeviceGetCount = r.get("cuDeviceGetCount");
        cuDeviceGet = r.get("cuDeviceGet");
        cuDeviceGetName = r.get("cuDeviceGetName");
        cuDeviceGetAttribute = r.get("cuDeviceGetAttribute");
        cuDevicePrimaryCtxRetain = r.get("cuDevicePrimaryCtxRetain");
        cuDevicePrimaryCtxRelease_v2 = r.get("cuDevicePrimaryCtxRelease_v2");
        cuCtxCreate_v4 = r.get("cuCtxCreate_v4");
        cuCtxDestroy_v2 = r.get("cuCtxDestroy_v2");
        cuCtxGetCurrent = r.get("cuCtxGetCurrent");
        cuCtxSetCurrent = r.get("cuCtxSetCurrent");
        cuCtxPushCurrent_v2 = r.get("cuCtxPushCurrent_v2");
        cuCtxPopCurrent_v2 = r.get("cuCtxPopCurrent_v2");
        cuCtxGetDevice = r.get("cuCtxGetDevice");
        cuMemHostAlloc = r.get("cuMemHostAlloc");
        cuMemHostGetDevicePointer_v2 = r.get("cuMemHostGetDevicePointer_v2");
        cuMemFreeHost = r.get("cuMemFreeHost");
        cuStreamCreate = r.get("cuStreamCreate");
        cuStreamDestroy_v2 = r.get("cuStreamDestroy_v2");
        cuStreamGetCtx = r.get("cuStreamGetCtx");
        cuStreamQuery = r.get("cuStreamQuery");
        cuStreamSynchronize = r.get("cuStreamSynchronize");
        cuMemsetD8Async = r.get("cuMemsetD8Async");
        cuLaunchHostFunc = r.get("cuLaunchHostFunc");
        cuStreamWriteValue64_v2 = r.get("cuStreamWriteValue64_v2");
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
        Objects.requireNonNull(pathOrName, "pathOrName");
        CudaDriver d = DRIVERS.get(pathOrName);
        if (d != null) return d;
        CudaDriver fresh = new CudaDriver(NativeLoader.load(pathOrName));
        CudaDriver raced = DRIVERS.putIfAbsent(pathOrName, fresh);
        return raced != null ? raced : fresh;
    }

    /** Every bound function and its exact descriptor, in header order. */
    public static Map<String, FunctionDescriptor> functions() { return FUNCTIONS; }

    /** The library this driver was loaded from. */
    public String library() { return lib.name(); }

    /** The bound functions this library does not export. */
    public List<String> missing() { return missing; }

    /** The handle of a bound function, or {@code NativeUnavailable} naming it. */
    public MethodHandle handle(String function) {
        MethodHandle h = resolved.get(function);
        if (h == null) throw FUNCTIONS.containsKey(function) ? lib.missing(function) : new IllegalArgumentException("not bound: " + function);
        return h;
    }

    /**
     * Throws {@link ErrorCode#NativeUnavailable} naming the library and every function of {@code
     * functions} it lacks; does nothing when all are there.
     */
    public void require(List<String> functions) {
        List<String> lacking = functions.stream().filter(f -> !resolved.containsKey(f)).toList();
        if (!lacking.isEmpty()) {
            throw NativeLibrary.unavailable(lib.name(), "it has no symbol " + String.join(", no symbol ", lacking), null);
        }
    }

    private MethodHandle need(MethodHandle h, String name) {
        if (h == null) throw lib.missing(name);
        return h;
    }

    // ------------------------------------------------------------------ raw entry points (CUresult)

    public int cuInit(int Flags) {
        try { return (int) need(cuInit, "cuInit").invokeExact(Flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuDriverGetVersion(MemorySegment driverVersion) {
        try { return (int) need(cuDriverGetVersion, "cuDriverGetVersion").invokeExact(driverVersion); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuGetErrorName(int error, MemorySegment pStr) {
        try { return (int) need(cuGetErrorName, "cuGetErrorName").invokeExact(error, pStr); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuGetErrorString(int error, MemorySegment pStr) {
        try { return (int) need(cuGetErrorString, "cuGetErrorString").invokeExact(error, pStr); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuDeviceGetCount(MemorySegment count) {
        try { return (int) need(cuDeviceGetCount, "cuDeviceGetCount").invokeExact(count); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuDeviceGet(MemorySegment device, int ordinal) {
        try { return (int) need(cuDeviceGet, "cuDeviceGet").invokeExact(device, ordinal); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuDeviceGetName(MemorySegment name, int len, int dev) {
        try { return (int) need(cuDeviceGetName, "cuDeviceGetName").invokeExact(name, len, dev); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuDeviceGetAttribute(MemorySegment pi, int attrib, int dev) {
        try { return (int) need(cuDeviceGetAttribute, "cuDeviceGetAttribute").invokeExact(pi, attrib, dev); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuDevicePrimaryCtxRetain(MemorySegment pctx, int dev) {
        try { return (int) need(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain").invokeExact(pctx, dev); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuDevicePrimaryCtxRelease_v2(int dev) {
        try { return (int) need(cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease_v2").invokeExact(dev); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuCtxCreate_v4(MemorySegment pctx, MemorySegment ctxCreateParams, int flags, int dev) {
        try { return (int) need(cuCtxCreate_v4, "cuCtxCreate_v4").invokeExact(pctx, ctxCreateParams, flags, dev); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuCtxDestroy_v2(MemorySegment ctx) {
        try { return (int) need(cuCtxDestroy_v2, "cuCtxDestroy_v2").invokeExact(ctx); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuCtxGetCurrent(MemorySegment pctx) {
        try { return (int) need(cuCtxGetCurrent, "cuCtxGetCurrent").invokeExact(pctx); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuCtxSetCurrent(MemorySegment ctx) {
        try { return (int) need(cuCtxSetCurrent, "cuCtxSetCurrent").invokeExact(ctx); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuCtxPushCurrent_v2(MemorySegment ctx) {
        try { return (int) need(cuCtxPushCurrent_v2, "cuCtxPushCurrent_v2").invokeExact(ctx); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuCtxPopCurrent_v2(MemorySegment pctx) {
        try { return (int) need(cuCtxPopCurrent_v2, "cuCtxPopCurrent_v2").invokeExact(pctx); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuCtxGetDevice(MemorySegment device) {
        try { return (int) need(cuCtxGetDevice, "cuCtxGetDevice").invokeExact(device); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuMemHostAlloc(MemorySegment pp, long bytesize, int Flags) {
        try { return (int) need(cuMemHostAlloc, "cuMemHostAlloc").invokeExact(pp, bytesize, Flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuMemHostGetDevicePointer_v2(MemorySegment pdptr, MemorySegment p, int Flags) {
        try { return (int) need(cuMemHostGetDevicePointer_v2, "cuMemHostGetDevicePointer_v2").invokeExact(pdptr, p, Flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuMemFreeHost(MemorySegment p) {
        try { return (int) need(cuMemFreeHost, "cuMemFreeHost").invokeExact(p); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuStreamCreate(MemorySegment phStream, int Flags) {
        try { return (int) need(cuStreamCreate, "cuStreamCreate").invokeExact(phStream, Flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuStreamDestroy_v2(MemorySegment hStream) {
        try { return (int) need(cuStreamDestroy_v2, "cuStreamDestroy_v2").invokeExact(hStream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuStreamGetCtx(MemorySegment hStream, MemorySegment pctx) {
        try { return (int) need(cuStreamGetCtx, "cuStreamGetCtx").invokeExact(hStream, pctx); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuStreamQuery(MemorySegment hStream) {
        try { return (int) need(cuStreamQuery, "cuStreamQuery").invokeExact(hStream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuStreamSynchronize(MemorySegment hStream) {
        try { return (int) need(cuStreamSynchronize, "cuStreamSynchronize").invokeExact(hStream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuMemsetD8Async(long dstDevice, byte uc, long N, MemorySegment hStream) {
        try { return (int) need(cuMemsetD8Async, "cuMemsetD8Async").invokeExact(dstDevice, uc, N, hStream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int cuLaunchHostFunc(MemorySegment hStream, MemorySegment fn, MemorySegment userData) {
        try { return (int) need(cuLaunchHostFunc, "cuLaunchHostFunc").invokeExact(hStream, fn, userData); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    /** The store behind the stream's work; flags {@link #CU_STREAM_WRITE_VALUE_DEFAULT} order earlier work. */
    public int cuStreamWriteValue64_v2(MemorySegment stream, long addr, long value, int flags) {
        try { return (int) need(cuStreamWriteValue64_v2, "cuStreamWriteValue64_v2").invokeExact(stream, addr, value, flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    // ------------------------------------------------------------------ checked helpers

    /** The driver's name for a status ({@code cuGetErrorName}), or "CUresult n" when it has none. */
    public String errorName(int status) {
        return text(status, true);
    }

    /** The driver's description of a status ({@code cuGetErrorString}), or "unknown error" when it has none. */
    public String errorString(int status) {
        return text(status, false);
    }

    private String text(int status, boolean name) {
        String fallback = name ? "CUresult " + status : "unknown error";
        if ((name ? cuGetErrorName : cuGetErrorString) == null) return fallback;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = name ? cuGetErrorName(status, out) : cuGetErrorString(status, out);
            String s = rc == CUDA_SUCCESS ? NativeLibrary.cString(out.get(ADDRESS, 0)) : null;
            return s != null ? s : fallback;
        }
    }

    /** {@link ErrorCode#Backend}: ("cuda", call, status, error name, error string). */
    public ReactorException failure(String call, int status) {
        return new ReactorException(ErrorCode.Backend, "cuda", call, status, errorName(status), errorString(status));
    }

    /** Throws {@link #failure} unless {@code status} is {@link #CUDA_SUCCESS}. */
    public void check(String call, int status) {
        if (status != CUDA_SUCCESS) throw failure(call, status);
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
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuDriverGetVersion", cuDriverGetVersion(v));
            return v.get(JAVA_INT, 0);
        }
    }

    public int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            check("cuDeviceGetCount", cuDeviceGetCount(n));
            return n.get(JAVA_INT, 0);
        }
    }

    /** The {@code CUdevice} of an ordinal. */
    public int device(int ordinal) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(JAVA_INT);
            check("cuDeviceGet", cuDeviceGet(d, ordinal));
            return d.get(JAVA_INT, 0);
        }
    }

    public String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocate(256);
            check("cuDeviceGetName", cuDeviceGetName(name, 256, device));
            return name.getString(0);
        }
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
    public int currentDevice() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(JAVA_INT);
            check("cuCtxGetDevice", cuCtxGetDevice(d));
            return d.get(JAVA_INT, 0);
        }
    }

    /** The calling thread's current context, 0 for none. */
    public long currentContext() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = a.allocate(ADDRESS);
            check("cuCtxGetCurrent", cuCtxGetCurrent(c));
            return c.get(ADDRESS, 0).address();
        }
    }

    public void setCurrent(long context) {
        check("cuCtxSetCurrent", cuCtxSetCurrent(MemorySegment.ofAddress(context)));
    }

    public void pushCurrent(long context) {
        check("cuCtxPushCurrent_v2", cuCtxPushCurrent_v2(MemorySegment.ofAddress(context)));
    }

    public long popCurrent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = a.allocate(ADDRESS);
            check("cuCtxPopCurrent_v2", cuCtxPopCurrent_v2(c));
            return c.get(ADDRESS, 0).address();
        }
    }

    /** Retains the device's primary context and returns it. */
    public long primaryContextRetain(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = a.allocate(ADDRESS);
            check("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(c, device));
            return c.get(ADDRESS, 0).address();
        }
    }

    public void primaryContextRelease(int device) {
        check("cuDevicePrimaryCtxRelease_v2", cuDevicePrimaryCtxRelease_v2(device));
    }

    /** A new stream of the current context. */
    public long streamCreate(int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(ADDRESS);
            check("cuStreamCreate", cuStreamCreate(s, flags));
            return s.get(ADDRESS, 0).address();
        }
    }

    public void streamDestroy(long stream) {
        check("cuStreamDestroy_v2", cuStreamDestroy_v2(MemorySegment.ofAddress(stream)));
    }

    /** The context of a stream ({@code cuStreamGetCtx}); for the null stream, the current context. */
    public long streamContext(long stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = a.allocate(ADDRESS);
            check("cuStreamGetCtx", cuStreamGetCtx(MemorySegment.ofAddress(stream), c));
            return c.get(ADDRESS, 0).address();
        }
    }

    /** Page-locked host memory ({@code cuMemHostAlloc}); returns the host address. */
    public long memHostAlloc(long bytes, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            check("cuMemHostAlloc", cuMemHostAlloc(p, bytes, flags));
            return p.get(ADDRESS, 0).address();
        }
    }

    /** The device address of mapped host memory ({@code cuMemHostGetDevicePointer_v2}, flags 0). */
    public long memHostDevicePointer(long host) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(JAVA_LONG);
            check("cuMemHostGetDevicePointer_v2", cuMemHostGetDevicePointer_v2(d, MemorySegment.ofAddress(host), 0));
            return d.get(JAVA_LONG, 0);
        }
    }

    public void memFreeHost(long host) {
        check("cuMemFreeHost", cuMemFreeHost(MemorySegment.ofAddress(host)));
    }

    @Override
    public String toString() { return "CudaDriver[" + lib.name() + "]"; }
}
