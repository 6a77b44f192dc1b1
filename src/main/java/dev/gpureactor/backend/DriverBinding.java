package dev.gpureactor.backend;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.loader.NativeLoader;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The base of a vendor binding (CUDA's {@code CudaDriver}, HIP's {@code HipRuntime}): what both share,
 * written once.
 *
 * <ul>
 *   <li>The library opened once per path or name through the one loader ({@link NativeLoader#load},
 *       with its directory checks): {@link #once}.
 *   <li>The addresses of the functions it binds ({@link DriverCall}: a vendor's enum, one constant per
 *       function), resolved once at construction into one array indexed by the constant's ordinal (the
 *       jextract-generated {@code *_fn} types take them): {@link #need} in each raw method is an array
 *       load and a null check, not a lookup by name, because the backstop's stream query is on the
 *       parker's hot path. A missing symbol fails only when that function is first needed; {@link
 *       #require} checks a whole feature up front.
 *   <li>The coded errors: {@link ErrorCode#NativeUnavailable} for a missing library or symbol,
 *       {@link ErrorCode#Backend} (backend, call, status, the driver's error name, its text) for a
 *       failed call ({@link #failure}, {@link #check}).
 *   <li>The out-parameter calls ({@code cuDeviceGet(&dev, 0)}): a confined arena for the out cell, the
 *       check, the read ({@link #outInt}, {@link #outLong}, {@link #outAddress}, {@link #outString}).
 * </ul>
 *
 * <p>A vendor keeps what truly differs: its descriptors and constants, its raw calls, how it names an
 * error, and its checked helpers (one line each over the calls above).
 *
 * <p><b>Threads.</b> Immutable after construction; every method may be called from any thread.
 *
 * @param <F> the vendor's enum of bound functions
 */
@SuppressWarnings("restricted") // FFM: handle() links a downcall for callers that want a MethodHandle
public abstract class DriverBinding<F extends Enum<F> & DriverCall> {
    private final String backend;
    /** The status of a call that succeeded ({@code CUDA_SUCCESS}, {@code hipSuccess}). */
    private final int success;
    private final NativeLibrary lib;
    private final Class<F> calls;
    /**
     * The address of each bound function by its {@link DriverCall#ordinal}; {@link MemorySegment#NULL} where
     * the library lacks it. Written only in the constructor and read through this final field, so the
     * final-field freeze publishes the elements to every thread without a fence on the read.
     */
    private final MemorySegment[] addresses;
    private final List<String> missing;

    /**
     * Opens {@code library} through the one loader and resolves every function of {@code calls} (in
     * header order) in it, once.
     *
     * @param backend "cuda", "hip": the first argument of the {@code Backend} errors
     * @param library the library's path (containing {@code /}) or loader name
     * @param calls   the vendor's enum of bound functions
     * @param success the status of a call that succeeded
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library;
     *     {@link ErrorCode#NativeDirUnsafe} for a path another user could write
     */
    protected DriverBinding(String backend, String library, Class<F> calls, int success) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.success = success;
        this.lib = NativeLoader.load(Objects.requireNonNull(library, "library"));
        this.calls = Objects.requireNonNull(calls, "calls");
        F[] all = calls.getEnumConstants();
        this.addresses = Arrays.stream(all).map(f -> lib.symbol(f.name()).orElse(MemorySegment.NULL))
                .toArray(MemorySegment[]::new);
        this.missing = Arrays.stream(all).filter(f -> addresses[f.ordinal()].address() == 0).map(Enum::name).toList();
    }

    /**
     * {@return every function of a vendor's {@code calls} and its exact descriptor, in header order}
     *
     * @param <F> the vendor's enum of bound functions
     * @param calls the vendor's enum of bound functions
     */
    public static <F extends Enum<F> & DriverCall> Map<String, FunctionDescriptor> descriptors(Class<F> calls) {
        Map<String, FunctionDescriptor> d = new LinkedHashMap<>();
        for (F f : calls.getEnumConstants()) d.put(f.name(), f.descriptor());
        return Collections.unmodifiableMap(d);
    }

    /**
     * {@return the binding of {@code pathOrName}, made by {@code make} (which opens the library) the first time
     * and kept in {@code cache} (drivers are never unloaded)}
     *
     * @param <B> the binding's type
     * @param cache the bindings made so far
     * @param pathOrName a path (containing {@code /}) or a loader name
     * @param make makes a binding of a library name
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library;
     *     {@link ErrorCode#NativeDirUnsafe} for a path another user could write
     */
    public static <B extends DriverBinding<?>> B once(ConcurrentHashMap<String, B> cache, String pathOrName,
                                                  Function<String, B> make) {
        Objects.requireNonNull(pathOrName, "pathOrName");
        B known = cache.get(pathOrName);
        if (known != null) return known;
        B fresh = make.apply(pathOrName);
        B raced = cache.putIfAbsent(pathOrName, fresh);
        return raced != null ? raced : fresh;
    }

    /**
     * {@return the {@code gar probe} entry of a vendor, written once: loads the binding of {@code library} (not
     * found: the coded reason), says what was found ({@link #probeFound}), lists the devices and whether each can
     * store into a line (not where the library lacks a function of {@link #lineFunctions}; else {@link
     * LineVendor#storeSupport}); a binding whose library loaded but cannot run says why ({@link #cannotRun})} It
     * never runs work on a device.
     *
     * @param <B> the binding's type
     * @param backend the backend's name
     * @param library the library's path or name
     * @param load loads a binding by library name
     */
    public static <B extends DriverBinding<?> & LineVendor<?, ?>> BackendReport probe(String backend, String library,
                                                                                     Function<String, B> load) {
        B binding;
        try {
            binding = load.apply(library);
        } catch (ReactorException e) {
            return new BackendReport(backend, library, false, e.getMessage(), List.of());
        }
        List<String> lacking = binding.lineFunctions().stream().filter(binding.missing()::contains).toList();
        List<DeviceReport> devices = new ArrayList<>();
        String why;
        try {
            String found = binding.probeFound();
            int count = binding.deviceCount();
            for (int i = 0; i < count; i++) {
                int dev = binding.device(i);
                StoreSupport stores;
                if (!lacking.isEmpty()) {
                    stores = new StoreSupport(false, "missing " + String.join(", ", lacking));
                } else {
                    try {
                        stores = binding.storeSupport(dev);
                    } catch (ReactorException e) {
                        stores = new StoreSupport(false, e.getMessage());
                    }
                }
                devices.add(new DeviceReport(i, binding.deviceName(dev), stores.usable(), stores.detail()));
            }
            why = found + ", " + count + " device(s)";
        } catch (ReactorException e) {
            why = binding.cannotRun(e);
        }
        if (!lacking.isEmpty()) why += "; no lines (missing " + String.join(", ", lacking) + "): query plan only";
        return new BackendReport(backend, library, true, why, devices);
    }

    /** {@return every function a line needs; a library without one of them offers the query plan only} */
    public abstract List<String> lineFunctions();

    /**
     * Readies the library for the probe's questions and says what was found ("driver 13.0").
     *
     * @return what was found, e.g. "driver 13.0"
     */
    protected abstract String probeFound();

    /**
     * {@return what the probe says of a library that loaded but failed a call ({@code e})}
     *
     * @param e the failure
     */
    protected abstract String cannotRun(ReactorException e);

    /** {@return how many devices the library sees} */
    public abstract int deviceCount();

    /**
     * {@return the device of an ordinal}
     *
     * @param ordinal the device ordinal
     */
    public abstract int device(int ordinal);

    /**
     * {@return a device's name}
     *
     * @param device the device
     */
    public abstract String deviceName(int device);

    /**
     * "cuda", "hip": the first argument of the {@code Backend} errors.
     *
     * @return "cuda" or "hip"
     */
    public final String backend() { return backend; }

    /** {@return the path or loader name the library was opened by} */
    public final String library() { return lib.name(); }

    /** {@return the bound functions the library does not export, in header order} */
    public final List<String> missing() { return missing; }

    /**
     * {@return a downcall handle of a bound function, or {@code NativeUnavailable} naming it}
     *
     * @param function the function
     */
    public final MethodHandle handle(String function) {
        F f = call(function);
        return Linker.nativeLinker().downcallHandle(need(f), f.descriptor());
    }

    /**
     * Throws {@link ErrorCode#NativeUnavailable} naming the library and every function of {@code
     * required} it lacks; does nothing when all are there.
     *
     * @param required the function names required
     */
    public final void require(List<String> required) {
        List<String> lacking = required.stream().filter(f -> !has(call(f))).toList();
        if (!lacking.isEmpty()) {
            throw NativeLibrary.unavailable(lib.name(), "it has no symbol " + String.join(", no symbol ", lacking), null);
        }
    }

    /**
     * Whether the library exports {@code function}.
     *
     * @param function the bound function
     * @return whether its address resolved
     */
    public final boolean has(F function) {
        return addresses[function.ordinal()].address() != 0; // the final array: see the field
    }

    /**
     * {@return the address of a bound function, or {@code NativeUnavailable} naming it when the library lacks it:
     * each raw call's first step, so one array load (no lookup by name)}
     *
     * @param function the function
     */
    public final MemorySegment need(F function) {
        MemorySegment a = addresses[function.ordinal()]; // the final array: see the field
        if (a.address() == 0) throw lib.missing(function.name());
        return a;
    }

    /** The constant of a function named by its symbol; a name this binding does not bind is a bug in the caller. */
    private F call(String function) {
        try {
            return Enum.valueOf(calls, function);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not bound: " + function, e);
        }
    }

    /**
     * {@return the driver's name for a status, e.g} "CUDA_ERROR_LAUNCH_FAILED", or a fallback naming the number.
     *
     * @param status the driver's status
     */
    public abstract String errorName(int status);

    /**
     * {@return the driver's description of a status, or "unknown error"}
     *
     * @param status the driver's status
     */
    public abstract String errorString(int status);

    /**
     * {@link ErrorCode#Backend}: (backend, call, status, the driver's error name, its description).
     *
     * @param call the call's name, for the error
     * @param status the driver's status
     * @return the coded error
     */
    public final ReactorException failure(String call, int status) {
        return new ReactorException(ErrorCode.Backend, backend, call, status, errorName(status), errorString(status));
    }

    /**
     * Throws {@link #failure} unless {@code status} is the success status.
     *
     * @param call the call's name, for the error
     * @param status the driver's status
     */
    public final void check(String call, int status) {
        if (status != success) throw failure(call, status);
    }

    /** A raw call that writes its result into {@code out} and returns the driver's status. */
    @FunctionalInterface
    protected interface OutCall {
        /**
         * Runs the call.
         *
         * @param out the cell the call writes its result into
         * @return the driver's status
         */
        int invoke(MemorySegment out);
    }

    /**
     * {@return the {@code int} a checked call writes (a count, a device, a version)}
     *
     * @param call the call's name, for the error
     * @param raw the raw handle
     */
    protected final int outInt(String call, OutCall raw) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            check(call, raw.invoke(out));
            return out.get(JAVA_INT, 0);
        }
    }

    /**
     * {@return the 64-bit value a checked call writes (a {@code CUdeviceptr})}
     *
     * @param call the call's name, for the error
     * @param raw the raw handle
     */
    protected final long outLong(String call, OutCall raw) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check(call, raw.invoke(out));
            return out.get(JAVA_LONG, 0);
        }
    }

    /**
     * {@return the pointer a checked call writes (a context, a stream, host memory), as its address}
     *
     * @param call the call's name, for the error
     * @param raw the raw handle
     */
    protected final long outAddress(String call, OutCall raw) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(call, raw.invoke(out));
            return out.get(ADDRESS, 0).address();
        }
    }

    /**
     * {@return the NUL-terminated string a checked call writes into {@code bytes} bytes (a device name)}
     *
     * @param call the call's name, for the error
     * @param bytes the size in bytes
     * @param raw the raw handle
     */
    protected final String outString(String call, int bytes, OutCall raw) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(bytes);
            check(call, raw.invoke(out));
            return out.getString(0);
        }
    }

    @Override
    public String toString() { return getClass().getSimpleName() + "[" + lib.name() + "]"; }
}
