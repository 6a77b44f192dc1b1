package dev.gpureactor.backend.hip;

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
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The HIP runtime ({@code libamdhip64.so}) over FFM, by hand in jextract's shape: one {@link
 * MethodHandle} per function, each {@link FunctionDescriptor} exactly the C prototype of {@code
 * hip_runtime_api.h}: {@code hipError_t} (an enum), {@code hipDevice_t}, {@code int} and {@code
 * unsigned int} are {@code JAVA_INT}; {@code size_t} and {@code uint64_t} are {@code JAVA_LONG};
 * {@code unsigned char} is {@code JAVA_BYTE}; {@code hipStream_t}, {@code hipCtx_t}, {@code
 * hipDeviceptr_t} and pointers are {@code ADDRESS}; {@code hipGetErrorName} returns {@code const
 * char *}. The stand-in's {@code native/standin/standin_hip.h} declares the same prototypes and a
 * test checks every descriptor here against it.
 *
 * <p>The library comes from the system property {@value #LIBRARY_PROPERTY} (default {@value
 * #DEFAULT_LIBRARY}); a missing library or symbol is {@link ErrorCode#NativeUnavailable}.
 */
public final class HipRuntime {
    public static final String LIBRARY_PROPERTY = "gar.hip.library";
    public static final String DEFAULT_LIBRARY = "libamdhip64.so";

    // hip_runtime_api.h: hipError_t (the values this library tests for)
    public static final int hipSuccess = 0;
    public static final int hipErrorInvalidValue = 1;
    public static final int hipErrorOutOfMemory = 2;
    public static final int hipErrorNotReady = 600;
    public static final int hipErrorLaunchFailure = 719;
    // hip_runtime_api.h: hipHostMalloc flags
    public static final int hipHostMallocPortable = 0x1;
    public static final int hipHostMallocMapped = 0x2;
    /** Never used for a line. */
    public static final int hipHostMallocWriteCombined = 0x4;
    /** Fine-grained: stays coherent while kernels run (system-scope stores are visible to the host). */
    public static final int hipHostMallocCoherent = 0x40000000;
    public static final int hipHostMallocNonCoherent = 0x80000000;

    private static final Map<String, FunctionDescriptor> FUNCTIONS;

    static {
        Map<String, FunctionDescriptor> f = new LinkedHashMap<>();
        f.put("hipInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        f.put("hipDriverGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipGetErrorName", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        f.put("hipGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        f.put("hipGetDeviceCount", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipGetDevice", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipSetDevice", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        f.put("hipDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        f.put("hipDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        f.put("hipDevicePrimaryCtxRetain", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        f.put("hipDevicePrimaryCtxRelease", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        f.put("hipHostMalloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        f.put("hipHostGetDevicePointer", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        f.put("hipHostFree", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipStreamCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipStreamDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipStreamGetDevice", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        f.put("hipStreamQuery", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipStreamSynchronize", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        f.put("hipStreamWriteValue64", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        f.put("hipMemsetD8Async", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_LONG, ADDRESS));
        f.put("hipLaunchHostFunc", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        FUNCTIONS = Collections.unmodifiableMap(f);
    }

    private static final ConcurrentHashMap<String, HipRuntime> RUNTIMES = new ConcurrentHashMap<>();

    private final NativeLibrary lib;
    private final Map<String, MethodHandle> resolved;
    private final List<String> missing;

    private final MethodHandle hipInit, hipDriverGetVersion, hipGetErrorName, hipGetErrorString, hipGetDeviceCount,
            hipGetDevice, hipSetDevice, hipDeviceGet, hipDeviceGetName, hipDevicePrimaryCtxRetain,
            hipDevicePrimaryCtxRelease, hipHostMalloc, hipHostGetDevicePointer, hipHostFree, hipStreamCreate,
            hipStreamDestroy, hipStreamGetDevice, hipStreamQuery, hipStreamSynchronize, hipStreamWriteValue64,
            hipMemsetD8Async, hipLaunchHostFunc;

    private HipRuntime(NativeLibrary lib) {
        this.lib = lib;
        Map<String, MethodHandle> r = new LinkedHashMap<>();
        List<String> absent = new ArrayList<>();
        FUNCTIONS.forEach((name, fd) -> lib.downcall(name, fd).ifPresentOrElse(h -> r.put(name, h), () -> absent.add(name)));
        this.resolved = Collections.unmodifiableMap(r);
        this.missing = List.copyOf(absent);
        hipInit = r.get("hipInit");
        hipDriverGetVersion = r.get("hipDriverGetVersion");
        hipGetErrorName = r.get("hipGetErrorName");
        hipGetErrorString = r.get("hipGetErrorString");
        hipGetDeviceCount = r.get("hipGetDeviceCount");
        hipGetDevice = r.get("hipGetDevice");
        hipSetDevice = r.get("hipSetDevice");
        hipDeviceGet = r.get("hipDeviceGet");
        hipDeviceGetName = r.get("hipDeviceGetName");
        hipDevicePrimaryCtxRetain = r.get("hipDevicePrimaryCtxRetain");
        hipDevicePrimaryCtxRelease = r.get("hipDevicePrimaryCtxRelease");
        hipHostMalloc = r.get("hipHostMalloc");
        hipHostGetDevicePointer = r.get("hipHostGetDevicePointer");
        hipHostFree = r.get("hipHostFree");
        hipStreamCreate = r.get("hipStreamCreate");
        hipStreamDestroy = r.get("hipStreamDestroy");
        hipStreamGetDevice = r.get("hipStreamGetDevice");
        hipStreamQuery = r.get("hipStreamQuery");
        hipStreamSynchronize = r.get("hipStreamSynchronize");
        hipStreamWriteValue64 = r.get("hipStreamWriteValue64");
        hipMemsetD8Async = r.get("hipMemsetD8Async");
        hipLaunchHostFunc = r.get("hipLaunchHostFunc");
    }

    public static String configuredLibrary() {
        return System.getProperty(LIBRARY_PROPERTY, DEFAULT_LIBRARY);
    }

    public static HipRuntime load() {
        return load(configuredLibrary());
    }

    /** @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library */
    public static HipRuntime load(String pathOrName) {
        Objects.requireNonNull(pathOrName, "pathOrName");
        HipRuntime h = RUNTIMES.get(pathOrName);
        if (h != null) return h;
        HipRuntime fresh = new HipRuntime(NativeLoader.load(pathOrName));
        HipRuntime raced = RUNTIMES.putIfAbsent(pathOrName, fresh);
        return raced != null ? raced : fresh;
    }

    public static Map<String, FunctionDescriptor> functions() { return FUNCTIONS; }

    public String library() { return lib.name(); }

    public List<String> missing() { return missing; }

    public MethodHandle handle(String function) {
        MethodHandle h = resolved.get(function);
        if (h == null) throw FUNCTIONS.containsKey(function) ? lib.missing(function) : new IllegalArgumentException("not bound: " + function);
        return h;
    }

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

    // ------------------------------------------------------------------ raw entry points

    public int hipInit(int flags) {
        try { return (int) need(hipInit, "hipInit").invokeExact(flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipDriverGetVersion(MemorySegment driverVersion) {
        try { return (int) need(hipDriverGetVersion, "hipDriverGetVersion").invokeExact(driverVersion); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public MemorySegment hipGetErrorName(int error) {
        try { return (MemorySegment) need(hipGetErrorName, "hipGetErrorName").invokeExact(error); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public MemorySegment hipGetErrorString(int error) {
        try { return (MemorySegment) need(hipGetErrorString, "hipGetErrorString").invokeExact(error); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipGetDeviceCount(MemorySegment count) {
        try { return (int) need(hipGetDeviceCount, "hipGetDeviceCount").invokeExact(count); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipGetDevice(MemorySegment deviceId) {
        try { return (int) need(hipGetDevice, "hipGetDevice").invokeExact(deviceId); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipSetDevice(int deviceId) {
        try { return (int) need(hipSetDevice, "hipSetDevice").invokeExact(deviceId); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipDeviceGet(MemorySegment device, int ordinal) {
        try { return (int) need(hipDeviceGet, "hipDeviceGet").invokeExact(device, ordinal); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipDeviceGetName(MemorySegment name, int len, int device) {
        try { return (int) need(hipDeviceGetName, "hipDeviceGetName").invokeExact(name, len, device); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipDevicePrimaryCtxRetain(MemorySegment pctx, int dev) {
        try { return (int) need(hipDevicePrimaryCtxRetain, "hipDevicePrimaryCtxRetain").invokeExact(pctx, dev); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipDevicePrimaryCtxRelease(int dev) {
        try { return (int) need(hipDevicePrimaryCtxRelease, "hipDevicePrimaryCtxRelease").invokeExact(dev); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipHostMalloc(MemorySegment ptr, long size, int flags) {
        try { return (int) need(hipHostMalloc, "hipHostMalloc").invokeExact(ptr, size, flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipHostGetDevicePointer(MemorySegment devPtr, MemorySegment hstPtr, int flags) {
        try { return (int) need(hipHostGetDevicePointer, "hipHostGetDevicePointer").invokeExact(devPtr, hstPtr, flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipHostFree(MemorySegment ptr) {
        try { return (int) need(hipHostFree, "hipHostFree").invokeExact(ptr); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipStreamCreate(MemorySegment stream) {
        try { return (int) need(hipStreamCreate, "hipStreamCreate").invokeExact(stream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipStreamDestroy(MemorySegment stream) {
        try { return (int) need(hipStreamDestroy, "hipStreamDestroy").invokeExact(stream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipStreamGetDevice(MemorySegment stream, MemorySegment device) {
        try { return (int) need(hipStreamGetDevice, "hipStreamGetDevice").invokeExact(stream, device); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipStreamQuery(MemorySegment stream) {
        try { return (int) need(hipStreamQuery, "hipStreamQuery").invokeExact(stream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipStreamSynchronize(MemorySegment stream) {
        try { return (int) need(hipStreamSynchronize, "hipStreamSynchronize").invokeExact(stream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    /** The store behind the stream's work (flags "reserved, ignored": pass 0). */
    public int hipStreamWriteValue64(MemorySegment stream, MemorySegment ptr, long value, int flags) {
        try { return (int) need(hipStreamWriteValue64, "hipStreamWriteValue64").invokeExact(stream, ptr, value, flags); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipMemsetD8Async(MemorySegment dest, byte value, long count, MemorySegment stream) {
        try { return (int) need(hipMemsetD8Async, "hipMemsetD8Async").invokeExact(dest, value, count, stream); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    public int hipLaunchHostFunc(MemorySegment stream, MemorySegment fn, MemorySegment userData) {
        try { return (int) need(hipLaunchHostFunc, "hipLaunchHostFunc").invokeExact(stream, fn, userData); } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    // ------------------------------------------------------------------ checked helpers

    /** {@code hipGetErrorName}, or "hipError_t n" without one. */
    public String errorName(int status) {
        String s = hipGetErrorName == null ? null : NativeLibrary.cString(hipGetErrorName(status));
        return s != null ? s : "hipError_t " + status;
    }

    public String errorString(int status) {
        String s = hipGetErrorString == null ? null : NativeLibrary.cString(hipGetErrorString(status));
        return s != null ? s : "unknown error";
    }

    /** {@link ErrorCode#Backend}: ("hip", call, status, error name, error string). */
    public ReactorException failure(String call, int status) {
        return new ReactorException(ErrorCode.Backend, "hip", call, status, errorName(status), errorString(status));
    }

    public void check(String call, int status) {
        if (status != hipSuccess) throw failure(call, status);
    }

    public int driverVersion() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("hipDriverGetVersion", hipDriverGetVersion(v));
            return v.get(JAVA_INT, 0);
        }
    }

    public int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            check("hipGetDeviceCount", hipGetDeviceCount(n));
            return n.get(JAVA_INT, 0);
        }
    }

    public int device(int ordinal) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(JAVA_INT);
            check("hipDeviceGet", hipDeviceGet(d, ordinal));
            return d.get(JAVA_INT, 0);
        }
    }

    public String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocate(256);
            check("hipDeviceGetName", hipDeviceGetName(name, 256, device));
            return name.getString(0);
        }
    }

    /** The calling thread's current device ({@code hipGetDevice}). */
    public int currentDevice() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(JAVA_INT);
            check("hipGetDevice", hipGetDevice(d));
            return d.get(JAVA_INT, 0);
        }
    }

    public void setDevice(int device) {
        check("hipSetDevice", hipSetDevice(device));
    }

    public long primaryContextRetain(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = a.allocate(ADDRESS);
            check("hipDevicePrimaryCtxRetain", hipDevicePrimaryCtxRetain(c, device));
            return c.get(ADDRESS, 0).address();
        }
    }

    public void primaryContextRelease(int device) {
        check("hipDevicePrimaryCtxRelease", hipDevicePrimaryCtxRelease(device));
    }

    /** A new stream on the current device. */
    public long streamCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(ADDRESS);
            check("hipStreamCreate", hipStreamCreate(s));
            return s.get(ADDRESS, 0).address();
        }
    }

    public void streamDestroy(long stream) {
        check("hipStreamDestroy", hipStreamDestroy(MemorySegment.ofAddress(stream)));
    }

    /** The device of a stream; for the null stream, the current device. */
    public int streamDevice(long stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(JAVA_INT);
            check("hipStreamGetDevice", hipStreamGetDevice(MemorySegment.ofAddress(stream), d));
            return d.get(JAVA_INT, 0);
        }
    }

    public long hostMalloc(long bytes, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            check("hipHostMalloc", hipHostMalloc(p, bytes, flags));
            return p.get(ADDRESS, 0).address();
        }
    }

    public long hostDevicePointer(long host) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(ADDRESS);
            check("hipHostGetDevicePointer", hipHostGetDevicePointer(d, MemorySegment.ofAddress(host), 0));
            return d.get(ADDRESS, 0).address();
        }
    }

    public void hostFree(long host) {
        check("hipHostFree", hipHostFree(MemorySegment.ofAddress(host)));
    }

    @Override
    public String toString() { return "HipRuntime[" + lib.name() + "]"; }
}
