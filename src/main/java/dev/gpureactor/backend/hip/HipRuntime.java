package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.LineDriver;
import dev.gpureactor.backend.LineVendor;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.PrimaryContexts;
import dev.gpureactor.backend.StoreSupport;
import dev.gpureactor.backend.StreamCalls;
import dev.gpureactor.backend.WordPark;
import dev.gpureactor.backend.hip.ffi.hipDeviceGetName_fn;
import dev.gpureactor.backend.hip.ffi.hipDeviceGet_fn;
import dev.gpureactor.backend.hip.ffi.hipDevicePrimaryCtxRelease_fn;
import dev.gpureactor.backend.hip.ffi.hipDevicePrimaryCtxRetain_fn;
import dev.gpureactor.backend.hip.ffi.hipDriverGetVersion_fn;
import dev.gpureactor.backend.hip.ffi.hipGetDeviceCount_fn;
import dev.gpureactor.backend.hip.ffi.hipGetDevice_fn;
import dev.gpureactor.backend.hip.ffi.hipGetErrorName_fn;
import dev.gpureactor.backend.hip.ffi.hipGetErrorString_fn;
import dev.gpureactor.backend.hip.ffi.hipHostFree_fn;
import dev.gpureactor.backend.hip.ffi.hipHostGetDevicePointer_fn;
import dev.gpureactor.backend.hip.ffi.hipHostMalloc_fn;
import dev.gpureactor.backend.hip.ffi.hipInit_fn;
import dev.gpureactor.backend.hip.ffi.hipLaunchHostFunc_fn;
import dev.gpureactor.backend.hip.ffi.hipMemsetD8Async_fn;
import dev.gpureactor.backend.hip.ffi.hipSetDevice_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamCreate_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamDestroy_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamGetDevice_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamQuery_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamSynchronize_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamWriteValue64_fn;
import dev.gpureactor.backend.hip.ffi.hip_ffi_h;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.park.NativeLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HIP runtime ({@code libamdhip64.so}) over FFM: the typed layer over the jextract-generated
 * {@link dev.gpureactor.backend.hip.ffi} ({@code scripts/jextract.sh}, from {@code native/ffi/hip_ffi.h} over
 * {@code hip_runtime_api.h} with {@code -D__HIP_PLATFORM_AMD__}). Descriptors and constants come from there;
 * raw methods call the generated {@code invoke(address, ...)} with addresses from the library this runtime was
 * loaded from ({@link DriverBinding}). The stand-in's {@code native/standin/standin_hip.h} declares the same
 * prototypes and a test checks every descriptor here against it.
 *
 * <p>The library comes from the system property {@value #LIBRARY_PROPERTY} (default {@value
 * #DEFAULT_LIBRARY}); a missing library or symbol is {@link ErrorCode#NativeUnavailable}.
 *
 * <p>It is the HIP {@link LineVendor}: {@code MappedLine.create(hip)} makes a line of the current
 * device, whose ports are {@link HipPort}s; and its {@link StreamCalls} drive streams of the current
 * device.
 */
public final class HipRuntime extends DriverBinding<HipCall> implements LineVendor<HipStream, HipPort>, StreamCalls<HipStream>, PrimaryContexts {
    public static final String LIBRARY_PROPERTY = "gar.hip.library";
    public static final String DEFAULT_LIBRARY = "libamdhip64.so";

    // hip_runtime_api.h: hipError_t (the values this library tests for)
    public static final int hipSuccess = hip_ffi_h.hipSuccess();
    public static final int hipErrorInvalidValue = hip_ffi_h.hipErrorInvalidValue();
    public static final int hipErrorOutOfMemory = hip_ffi_h.hipErrorOutOfMemory();
    /** What {@code hipGetDeviceCount} answers on a machine without an AMD GPU. */
    public static final int hipErrorNoDevice = hip_ffi_h.hipErrorNoDevice();
    public static final int hipErrorNotReady = hip_ffi_h.hipErrorNotReady();
    public static final int hipErrorLaunchFailure = hip_ffi_h.hipErrorLaunchFailure();
    // hip_runtime_api.h: hipHostMalloc flags
    public static final int hipHostMallocPortable = hip_ffi_h.hipHostMallocPortable();
    public static final int hipHostMallocMapped = hip_ffi_h.hipHostMallocMapped();
    /** Never used for a line. */
    public static final int hipHostMallocWriteCombined = hip_ffi_h.hipHostMallocWriteCombined();
    /** Fine-grained: stays coherent while kernels run (system-scope stores are visible to the host). */
    public static final int hipHostMallocCoherent = hip_ffi_h.hipHostMallocCoherent();
    public static final int hipHostMallocNonCoherent = hip_ffi_h.hipHostMallocNonCoherent();

    /** Every entry point a line needs ({@link MappedLine#create} names the missing ones). */
    public static final List<String> LINE_FUNCTIONS = List.of(
            "hipGetErrorName", "hipGetErrorString", "hipGetDevice", "hipSetDevice", "hipDevicePrimaryCtxRetain",
            "hipDevicePrimaryCtxRelease", "hipHostMalloc", "hipHostGetDevicePointer", "hipHostFree",
            "hipStreamGetDevice", "hipStreamQuery", "hipStreamSynchronize", "hipStreamWriteValue64");
    /** Every entry point a port without a line needs ({@link HipPort#queryOnly}). */
    public static final List<String> QUERY_FUNCTIONS = List.of("hipStreamQuery", "hipStreamSynchronize", "hipGetErrorName", "hipGetErrorString");
    /** What {@link #storeSupport} says: HIP has no device attribute for the store. */
    static final String STORES = "hipStreamWriteValue64 present (HIP has no device attribute for it; ROCm marks it beta)";

    private static final Map<String, FunctionDescriptor> FUNCTIONS = DriverBinding.descriptors(HipCall.class);

    private static final ConcurrentHashMap<String, HipRuntime> RUNTIMES = new ConcurrentHashMap<>();

    private HipRuntime(NativeLibrary lib) {
        super("hip", lib, HipCall.class, hipSuccess);
    }

    public static String configuredLibrary() {
        return System.getProperty(LIBRARY_PROPERTY, DEFAULT_LIBRARY);
    }

    public static HipRuntime load() {
        return load(configuredLibrary());
    }

    /** @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library */
    public static HipRuntime load(String pathOrName) {
        return DriverBinding.once(RUNTIMES, pathOrName, HipRuntime::new);
    }

    public static Map<String, FunctionDescriptor> functions() { return FUNCTIONS; }

    // ------------------------------------------------------------------ raw entry points

    public int hipInit(int flags) {
        return hipInit_fn.invoke(need(HipCall.hipInit), flags);
    }

    public int hipDriverGetVersion(MemorySegment driverVersion) {
        return hipDriverGetVersion_fn.invoke(need(HipCall.hipDriverGetVersion), driverVersion);
    }

    public MemorySegment hipGetErrorName(int error) {
        return hipGetErrorName_fn.invoke(need(HipCall.hipGetErrorName), error);
    }

    public MemorySegment hipGetErrorString(int error) {
        return hipGetErrorString_fn.invoke(need(HipCall.hipGetErrorString), error);
    }

    public int hipGetDeviceCount(MemorySegment count) {
        return hipGetDeviceCount_fn.invoke(need(HipCall.hipGetDeviceCount), count);
    }

    public int hipGetDevice(MemorySegment deviceId) {
        return hipGetDevice_fn.invoke(need(HipCall.hipGetDevice), deviceId);
    }

    public int hipSetDevice(int deviceId) {
        return hipSetDevice_fn.invoke(need(HipCall.hipSetDevice), deviceId);
    }

    public int hipDeviceGet(MemorySegment device, int ordinal) {
        return hipDeviceGet_fn.invoke(need(HipCall.hipDeviceGet), device, ordinal);
    }

    public int hipDeviceGetName(MemorySegment name, int len, int device) {
        return hipDeviceGetName_fn.invoke(need(HipCall.hipDeviceGetName), name, len, device);
    }

    public int hipDevicePrimaryCtxRetain(MemorySegment pctx, int dev) {
        return hipDevicePrimaryCtxRetain_fn.invoke(need(HipCall.hipDevicePrimaryCtxRetain), pctx, dev);
    }

    public int hipDevicePrimaryCtxRelease(int dev) {
        return hipDevicePrimaryCtxRelease_fn.invoke(need(HipCall.hipDevicePrimaryCtxRelease), dev);
    }

    public int hipHostMalloc(MemorySegment ptr, long size, int flags) {
        return hipHostMalloc_fn.invoke(need(HipCall.hipHostMalloc), ptr, size, flags);
    }

    public int hipHostGetDevicePointer(MemorySegment devPtr, MemorySegment hstPtr, int flags) {
        return hipHostGetDevicePointer_fn.invoke(need(HipCall.hipHostGetDevicePointer), devPtr, hstPtr, flags);
    }

    public int hipHostFree(MemorySegment ptr) {
        return hipHostFree_fn.invoke(need(HipCall.hipHostFree), ptr);
    }

    public int hipStreamCreate(MemorySegment stream) {
        return hipStreamCreate_fn.invoke(need(HipCall.hipStreamCreate), stream);
    }

    public int hipStreamDestroy(MemorySegment stream) {
        return hipStreamDestroy_fn.invoke(need(HipCall.hipStreamDestroy), stream);
    }

    public int hipStreamGetDevice(MemorySegment stream, MemorySegment device) {
        return hipStreamGetDevice_fn.invoke(need(HipCall.hipStreamGetDevice), stream, device);
    }

    public int hipStreamQuery(MemorySegment stream) {
        return hipStreamQuery_fn.invoke(need(HipCall.hipStreamQuery), stream);
    }

    public int hipStreamSynchronize(MemorySegment stream) {
        return hipStreamSynchronize_fn.invoke(need(HipCall.hipStreamSynchronize), stream);
    }

    /** The store behind the stream's work (flags "reserved, ignored": pass 0). */
    public int hipStreamWriteValue64(MemorySegment stream, MemorySegment ptr, long value, int flags) {
        return hipStreamWriteValue64_fn.invoke(need(HipCall.hipStreamWriteValue64), stream, ptr, value, flags);
    }

    public int hipMemsetD8Async(MemorySegment dest, byte value, long count, MemorySegment stream) {
        return hipMemsetD8Async_fn.invoke(need(HipCall.hipMemsetD8Async), dest, value, count, stream);
    }

    public int hipLaunchHostFunc(MemorySegment stream, MemorySegment fn, MemorySegment userData) {
        return hipLaunchHostFunc_fn.invoke(need(HipCall.hipLaunchHostFunc), stream, fn, userData);
    }

    // ------------------------------------------------------------------ checked helpers

    /** {@code hipGetErrorName}, or "hipError_t n" without one. */
    @Override
    public String errorName(int status) {
        String s = !has(HipCall.hipGetErrorName) ? null : NativeLibrary.cString(hipGetErrorName(status));
        return s != null ? s : "hipError_t " + status;
    }

    @Override
    public String errorString(int status) {
        String s = !has(HipCall.hipGetErrorString) ? null : NativeLibrary.cString(hipGetErrorString(status));
        return s != null ? s : "unknown error";
    }

    /** The runtime's version as "major.minor" ({@code hipDriverGetVersion}: major·10⁷ + minor·10⁵ + patch). */
    public String versionText() {
        int v = driverVersion();
        return v / 10_000_000 + "." + v / 100_000 % 100;
    }

    public int driverVersion() {
        return outInt("hipDriverGetVersion", this::hipDriverGetVersion);
    }

    /** The runtime's version number ("runtime 60443483"; the runtime initializes itself). */
    @Override
    protected String probeFound() {
        return "runtime " + driverVersion();
    }

    /** On a machine without an AMD GPU ({@code hipErrorNoDevice}): the runtime's version, no device. */
    @Override
    protected String cannotRun(ReactorException e) {
        boolean noDevice = e.code() == ErrorCode.Backend && e.args().size() > 2
                && e.args().get(2).equals(Integer.toString(hipErrorNoDevice));
        return noDevice ? "HIP runtime " + versionText() + " found, no device"
                : "the library loaded but the runtime cannot run: " + e.getMessage();
    }

    @Override
    public List<String> lineFunctions() { return LINE_FUNCTIONS; }

    @Override
    public int deviceCount() {
        return outInt("hipGetDeviceCount", this::hipGetDeviceCount);
    }

    @Override
    public int device(int ordinal) {
        return outInt("hipDeviceGet", d -> hipDeviceGet(d, ordinal));
    }

    @Override
    public String deviceName(int device) {
        return outString("hipDeviceGetName", 256, name -> hipDeviceGetName(name, 256, device));
    }

    /** The calling thread's current device ({@code hipGetDevice}). */
    @Override
    public int currentDevice() {
        return outInt("hipGetDevice", this::hipGetDevice);
    }

    public void setDevice(int device) {
        check("hipSetDevice", hipSetDevice(device));
    }

    @Override
    public long primaryContextRetain(int device) {
        return outAddress("hipDevicePrimaryCtxRetain", c -> hipDevicePrimaryCtxRetain(c, device));
    }

    @Override
    public void primaryContextRelease(int device) {
        check("hipDevicePrimaryCtxRelease", hipDevicePrimaryCtxRelease(device));
    }

    /** A new stream on the current device. */
    public long streamCreate() {
        return outAddress("hipStreamCreate", this::hipStreamCreate);
    }

    public void streamDestroy(long stream) {
        check("hipStreamDestroy", hipStreamDestroy(MemorySegment.ofAddress(stream)));
    }

    /** The device of a stream; for the null stream, the current device. */
    public int streamDevice(long stream) {
        return outInt("hipStreamGetDevice", d -> hipStreamGetDevice(MemorySegment.ofAddress(stream), d));
    }

    public long hostMalloc(long bytes, int flags) {
        return outAddress("hipHostMalloc", p -> hipHostMalloc(p, bytes, flags));
    }

    public long hostDevicePointer(long host) {
        return outAddress("hipHostGetDevicePointer", d -> hipHostGetDevicePointer(d, MemorySegment.ofAddress(host), 0));
    }

    public void hostFree(long host) {
        check("hipHostFree", hipHostFree(MemorySegment.ofAddress(host)));
    }

    // ------------------------------------------------------------------ stream calls (current device)

    @Override
    public HipStream newStream() { return HipStream.ofRaw(streamCreate()); }

    @Override
    public int synchronizeStatus(HipStream stream) { return hipStreamSynchronize(stream.segment()); }

    @Override
    public void destroyStream(HipStream stream) { streamDestroy(stream.handle()); }

    @Override
    public void launchHostFunction(HipStream stream, MemorySegment fn, MemorySegment userData) {
        check("hipLaunchHostFunc", hipLaunchHostFunc(stream.segment(), fn, userData));
    }

    /** {@code hipMemsetD8Async}. */
    @Override
    public void fillAsync(HipStream stream, long deviceAddress, byte value, long bytes) {
        check("hipMemsetD8Async", hipMemsetD8Async(MemorySegment.ofAddress(deviceAddress), value, bytes, stream.segment()));
    }

    /** {@code hipHostMalloc(Mapped | Coherent)}. */
    @Override
    public long allocMapped(long bytes) { return hostMalloc(bytes, HipLines.ALLOC_FLAGS); }

    @Override
    public long mappedDevicePointer(long host) { return hostDevicePointer(host); }

    @Override
    public void freeMapped(long host) { hostFree(host); }

    // ------------------------------------------------------------------ the HIP line vendor

    /** Checks {@link #LINE_FUNCTIONS}: the table of a line (the runtime initializes itself). */
    @Override
    public LineDriver lineDriver() {
        require(LINE_FUNCTIONS);
        return new HipLines(this);
    }

    /** Every device whose runtime has {@code hipStreamWriteValue64} (checked by {@link #lineDriver}) takes it. */
    @Override
    public StoreSupport storeSupport(int device) {
        return new StoreSupport(true, STORES);
    }

    @Override
    public HipPort port(MappedLine<HipStream, HipPort> line, HipStream stream, Slot slot, long target, WordPark park) {
        return new HipPort(line, stream, slot, target, park);
    }
}
