package dev.gpureactor.park;

import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.park.ffi.garpark_abi_version_fn;
import dev.gpureactor.park.ffi.garpark_differs_fn;
import dev.gpureactor.park.ffi.garpark_ffi_h;
import dev.gpureactor.park.ffi.garpark_park_fn;
import dev.gpureactor.park.ffi.garpark_probe_fn;
import dev.gpureactor.park.ffi.garpark_ticks_fn;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The typed binding of {@code native/park/garpark.h} over the jextract-generated {@link
 * dev.gpureactor.park.ffi} ({@code scripts/jextract.sh}; CI checks it is current): every descriptor and
 * constant comes from there, and the blocking calls go through the generated {@code invoke(address, ...)}
 * with the address from this library. The header is the source of truth: {@code NativeParkHeaderTest}
 * parses its declarations and checks that each one resolves in the library and that its descriptor here
 * matches the C types exactly.
 *
 * <p>Unlike jextract's output the handles live in an instance made by {@link #bind}, not in static
 * initialisers, so that a missing library or symbol is a coded {@link ErrorCode#NativeUnavailable}, never
 * an {@link ExceptionInInitializerError} or {@link UnsatisfiedLinkError}.
 *
 * <p><b>Linker options.</b> {@code garpark_park} blocks for up to its bound and {@code garpark_probe} may
 * sleep while it calibrates the TSC, so both are linked plainly: the thread is in native state while they
 * run and safepoints (GC) proceed. Only the tiny non-blocking helpers ({@code garpark_abi_version},
 * {@code garpark_differs}, {@code garpark_ticks}) are linked with {@link Linker.Option#critical
 * critical(false)}, which drops the thread-state transition; a critical call that blocked would hold back
 * every safepoint of the JVM.
 */
@SuppressWarnings("restricted") // FFM linking and library loading are this class's purpose; run with --enable-native-access
public final class NativePark {
    /** The library's name: {@code libgarpark.so} in the jar. */
    public static final String LIBRARY = "garpark";
    /** {@code GARPARK_ABI_VERSION}: the header this binding was generated from. */
    public static final int GARPARK_ABI_VERSION = garpark_ffi_h.GARPARK_ABI_VERSION();

    public static final int GARPARK_NONE = garpark_ffi_h.GARPARK_NONE();
    public static final int GARPARK_UMWAIT = garpark_ffi_h.GARPARK_UMWAIT();
    public static final int GARPARK_MWAITX = garpark_ffi_h.GARPARK_MWAITX();
    public static final int GARPARK_WFE = garpark_ffi_h.GARPARK_WFE();
    public static final int GARPARK_WFET = garpark_ffi_h.GARPARK_WFET();

    public static final int GARPARK_BOUND = garpark_ffi_h.GARPARK_BOUND();
    public static final int GARPARK_CHANGED = garpark_ffi_h.GARPARK_CHANGED();
    public static final int GARPARK_REFUSED = garpark_ffi_h.GARPARK_REFUSED();
    public static final int GARPARK_BAD_ARG = garpark_ffi_h.GARPARK_BAD_ARG();

    private static final FunctionDescriptor ABI_VERSION_DESC = garpark_abi_version_fn.descriptor();
    private static final FunctionDescriptor PROBE_DESC = garpark_probe_fn.descriptor();
    private static final FunctionDescriptor PARK_DESC = garpark_park_fn.descriptor();
    private static final FunctionDescriptor DIFFERS_DESC = garpark_differs_fn.descriptor();
    private static final FunctionDescriptor TICKS_DESC = garpark_ticks_fn.descriptor();

    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private final NativeLibrary library;
    private final MemorySegment abiVersionAddr, probeAddr, parkAddr, differsAddr, ticksAddr;
    private final MethodHandle abiVersion, probe, park, differs, ticks;

    private NativePark(NativeLibrary library) {
        Linker linker = Linker.nativeLinker();
        this.library = library;
        abiVersionAddr = library.find("garpark_abi_version");
        probeAddr = library.find("garpark_probe");
        parkAddr = library.find("garpark_park");
        differsAddr = library.find("garpark_differs");
        ticksAddr = library.find("garpark_ticks");
        abiVersion = linker.downcallHandle(abiVersionAddr, ABI_VERSION_DESC, CRITICAL);
        probe = linker.downcallHandle(probeAddr, PROBE_DESC);
        park = linker.downcallHandle(parkAddr, PARK_DESC);
        differs = linker.downcallHandle(differsAddr, DIFFERS_DESC, CRITICAL);
        ticks = linker.downcallHandle(ticksAddr, TICKS_DESC, CRITICAL);
    }

    /**
     * Binds every function of {@code garpark.h} in {@code library} and checks its ABI version.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} when a symbol is missing or the library
     *     was built from another version of the header
     */
    public static NativePark bind(NativeLibrary library) {
        Objects.requireNonNull(library, "library");
        NativePark p = new NativePark(library);
        int abi = p.garpark_abi_version();
        if (abi != GARPARK_ABI_VERSION) {
            throw new ReactorException(ErrorCode.NativeUnavailable, library.name(),
                "its ABI version is " + abi + ", this binding needs " + GARPARK_ABI_VERSION);
        }
        return p;
    }

    /** Every function of the header with its descriptor, in header order. */
    public static Map<String, FunctionDescriptor> descriptors() {
        Map<String, FunctionDescriptor> m = new LinkedHashMap<>();
        m.put("garpark_abi_version", ABI_VERSION_DESC);
        m.put("garpark_probe", PROBE_DESC);
        m.put("garpark_park", PARK_DESC);
        m.put("garpark_differs", DIFFERS_DESC);
        m.put("garpark_ticks", TICKS_DESC);
        return Collections.unmodifiableMap(m);
    }

    public NativeLibrary library() { return library; }

    // ---- int32_t garpark_abi_version(void) ----
    public static FunctionDescriptor garpark_abi_version$descriptor() { return ABI_VERSION_DESC; }
    public MethodHandle garpark_abi_version$handle() { return abiVersion; }
    public MemorySegment garpark_abi_version$address() { return abiVersionAddr; }

    public int garpark_abi_version() {
        try {
            return (int) abiVersion.invokeExact();
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("should not reach here", t);
        }
    }

    // ---- int32_t garpark_probe(uint64_t *rate_hz, char *note, int64_t note_cap) ----
    public static FunctionDescriptor garpark_probe$descriptor() { return PROBE_DESC; }
    public MethodHandle garpark_probe$handle() { return probe; }
    public MemorySegment garpark_probe$address() { return probeAddr; }

    public int garpark_probe(MemorySegment rateHz, MemorySegment note, long noteCap) {
        return garpark_probe_fn.invoke(probeAddr, rateHz, note, noteCap);
    }

    // ---- int32_t garpark_park(const uint64_t *line, const uint64_t *snapshot, int64_t bound_ns) ----
    public static FunctionDescriptor garpark_park$descriptor() { return PARK_DESC; }
    public MethodHandle garpark_park$handle() { return park; }
    public MemorySegment garpark_park$address() { return parkAddr; }

    public int garpark_park(MemorySegment line, MemorySegment snapshot, long boundNs) {
        return garpark_park_fn.invoke(parkAddr, line, snapshot, boundNs);
    }

    // ---- int32_t garpark_differs(const uint64_t *line, const uint64_t *snapshot) ----
    public static FunctionDescriptor garpark_differs$descriptor() { return DIFFERS_DESC; }
    public MethodHandle garpark_differs$handle() { return differs; }
    public MemorySegment garpark_differs$address() { return differsAddr; }

    public int garpark_differs(MemorySegment line, MemorySegment snapshot) {
        try {
            return (int) differs.invokeExact(line, snapshot);
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("should not reach here", t);
        }
    }

    // ---- int64_t garpark_ticks(void) ----
    public static FunctionDescriptor garpark_ticks$descriptor() { return TICKS_DESC; }
    public MethodHandle garpark_ticks$handle() { return ticks; }
    public MemorySegment garpark_ticks$address() { return ticksAddr; }

    public long garpark_ticks() {
        try {
            return (long) ticks.invokeExact();
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("should not reach here", t);
        }
    }
}
