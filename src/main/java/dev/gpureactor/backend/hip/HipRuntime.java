package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.hip.raw.HipCall;
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

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static dev.gpureactor.backend.hip.raw.HipRaw.*;

/**
 * The HIP runtime ({@code libamdhip64.so}) over FFM, as checked calls: each runs a raw call of the
 * non-exported {@code backend.hip.raw.HipRaw} (the jextract-generated {@code invoke} of {@code
 * backend.hip.ffi}, from {@code native/ffi/hip_ffi.h} over {@code hip_runtime_api.h} with {@code
 * -D__HIP_PLATFORM_AMD__}, at the address resolved in the library this runtime was loaded from). The
 * stand-in's {@code native/standin/standin_hip.h} declares the same prototypes and a test checks every
 * descriptor against it.
 *
 * <p>The library comes from the system property {@value #LIBRARY_PROPERTY} (default {@value
 * #DEFAULT_LIBRARY}); a missing library or symbol is {@link ErrorCode#NativeUnavailable}.
 *
 * <p>It is the HIP {@link LineVendor}: {@code MappedLine.create(hip)} makes a line of the current
 * device, whose ports are {@link HipPort}s; and its {@link StreamCalls} drive streams of the current
 * device.
 */
public final class HipRuntime extends DriverBinding<HipCall> implements LineVendor<HipStream, HipPort>, StreamCalls<HipStream>, PrimaryContexts {
    /** The system property naming the library (path or loader name). */
    public static final String LIBRARY_PROPERTY = "gar.hip.library";
    /** The runtime's loader name. */
    public static final String DEFAULT_LIBRARY = "libamdhip64.so";

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

    private HipRuntime(String library) {
        super("hip", library, HipCall.class, hipSuccess);
    }

    /** {@return the library named by {@value #LIBRARY_PROPERTY}, or {@value #DEFAULT_LIBRARY}} */
    public static String configuredLibrary() {
        return System.getProperty(LIBRARY_PROPERTY, DEFAULT_LIBRARY);
    }

    /** {@return the runtime from {@link #configuredLibrary()}} */
    public static HipRuntime load() {
        return load(configuredLibrary());
    }

    /**
     * The runtime in the library at a path (containing {@code /}) or of a loader name; opened once.
     *
     * @param pathOrName a path (containing {@code /}) or a loader name
     * @return the runtime
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library
     */
    public static HipRuntime load(String pathOrName) {
        return DriverBinding.once(RUNTIMES, pathOrName, HipRuntime::new);
    }

    /** {@return every bound function and its exact descriptor, in header order} */
    public static Map<String, FunctionDescriptor> functions() { return FUNCTIONS; }


    // ------------------------------------------------------------------ checked helpers

    /** {@code hipGetErrorName}, or "hipError_t n" without one. */
    @Override
    public String errorName(int status) {
        String s = !has(HipCall.hipGetErrorName) ? null : NativeLibrary.cString(hipGetErrorName(this, status));
        return s != null ? s : "hipError_t " + status;
    }

    @Override
    public String errorString(int status) {
        String s = !has(HipCall.hipGetErrorString) ? null : NativeLibrary.cString(hipGetErrorString(this, status));
        return s != null ? s : "unknown error";
    }

    /**
     * {@return the runtime's version as "major.minor" ({@code hipDriverGetVersion}: major·10⁷ + minor·10⁵ +
     * patch)}
     */
    public String versionText() {
        int v = driverVersion();
        return v / 10_000_000 + "." + v / 100_000 % 100;
    }

    /** {@return the runtime's version number ({@code hipDriverGetVersion})} */
    public int driverVersion() {
        return outInt("hipDriverGetVersion", o -> hipDriverGetVersion(this, o));
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
        return outInt("hipGetDeviceCount", o -> hipGetDeviceCount(this, o));
    }

    @Override
    public int device(int ordinal) {
        return outInt("hipDeviceGet", d -> hipDeviceGet(this, d, ordinal));
    }

    @Override
    public String deviceName(int device) {
        return outString("hipDeviceGetName", 256, name -> hipDeviceGetName(this, name, 256, device));
    }

    /** The calling thread's current device ({@code hipGetDevice}). */
    @Override
    public int currentDevice() {
        return outInt("hipGetDevice", o -> hipGetDevice(this, o));
    }

    /**
     * Makes {@code device} the calling thread's current one ({@code hipSetDevice}).
     *
     * @param device the device
     */
    public void setDevice(int device) {
        check("hipSetDevice", hipSetDevice(this, device));
    }

    @Override
    public long primaryContextRetain(int device) {
        return outAddress("hipDevicePrimaryCtxRetain", c -> hipDevicePrimaryCtxRetain(this, c, device));
    }

    @Override
    public void primaryContextRelease(int device) {
        check("hipDevicePrimaryCtxRelease", hipDevicePrimaryCtxRelease(this, device));
    }

    /** {@return a new stream on the current device} */
    public long streamCreate() {
        return outAddress("hipStreamCreate", o -> hipStreamCreate(this, o));
    }

    /**
     * Destroys a stream ({@code hipStreamDestroy}).
     *
     * @param stream the stream's handle
     */
    public void streamDestroy(long stream) {
        check("hipStreamDestroy", hipStreamDestroy(this, MemorySegment.ofAddress(stream)));
    }

    /**
     * {@return the device of a stream; for the null stream, the current device}
     *
     * @param stream the stream
     */
    public int streamDevice(long stream) {
        return outInt("hipStreamGetDevice", d -> hipStreamGetDevice(this, MemorySegment.ofAddress(stream), d));
    }

    /**
     * {@return page-locked host memory ({@code hipHostMalloc}), its host address}
     *
     * @param bytes the size in bytes
     * @param flags the {@code hipHostMalloc} flags
     */
    public long hostMalloc(long bytes, int flags) {
        return outAddress("hipHostMalloc", p -> hipHostMalloc(this, p, bytes, flags));
    }

    /**
     * {@return the device address of mapped host memory ({@code hipHostGetDevicePointer})}
     *
     * @param host the host address
     */
    public long hostDevicePointer(long host) {
        return outAddress("hipHostGetDevicePointer", d -> hipHostGetDevicePointer(this, d, MemorySegment.ofAddress(host), 0));
    }

    /**
     * Frees page-locked host memory ({@code hipHostFree}).
     *
     * @param host the host address
     */
    public void hostFree(long host) {
        check("hipHostFree", hipHostFree(this, MemorySegment.ofAddress(host)));
    }

    // ------------------------------------------------------------------ stream calls (current device)

    @Override
    public HipStream newStream() { return HipStream.ofRaw(streamCreate()); }

    @Override
    public int synchronizeStatus(HipStream stream) { return hipStreamSynchronize(this, stream.segment()); }

    @Override
    public void destroyStream(HipStream stream) { streamDestroy(stream.handle()); }

    @Override
    public void launchHostFunction(HipStream stream, MemorySegment fn, MemorySegment userData) {
        check("hipLaunchHostFunc", hipLaunchHostFunc(this, stream.segment(), fn, userData));
    }

    /** {@code hipMemsetD8Async}. */
    @Override
    public void fillAsync(HipStream stream, long deviceAddress, byte value, long bytes) {
        check("hipMemsetD8Async", hipMemsetD8Async(this, MemorySegment.ofAddress(deviceAddress), value, bytes, stream.segment()));
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
