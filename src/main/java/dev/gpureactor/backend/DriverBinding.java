package dev.gpureactor.backend;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.park.NativeLibrary;
import dev.gpureactor.park.NativeLoader;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a vendor binding (CUDA's {@code CudaDriver}, HIP's {@code HipRuntime}) shares: the library opened
 * once per path or name through the one loader ({@link NativeLoader#load}, with its directory checks),
 * the addresses of the functions it binds (the jextract-generated {@code *_fn} types take them), which
 * of them the library lacks, and the coded errors: {@link ErrorCode#NativeUnavailable} for a missing
 * library or symbol, {@link ErrorCode#Backend} for a failed call. A vendor keeps its raw calls, its
 * error names and its checked helpers; a missing symbol fails only when that function is first needed.
 */
@SuppressWarnings("restricted") // FFM: handle() links a downcall for callers that want a MethodHandle
public final class DriverBinding {
    private final String backend;
    private final NativeLibrary lib;
    private final Map<String, FunctionDescriptor> functions;
    private final Map<String, MemorySegment> resolved;
    private final List<String> missing;

    private DriverBinding(String backend, NativeLibrary lib, Map<String, FunctionDescriptor> functions) {
        this.backend = backend;
        this.lib = lib;
        this.functions = functions;
        Map<String, MemorySegment> r = new LinkedHashMap<>();
        List<String> absent = new ArrayList<>();
        functions.keySet().forEach(name -> lib.symbol(name).ifPresentOrElse(a -> r.put(name, a), () -> absent.add(name)));
        this.resolved = Collections.unmodifiableMap(r);
        this.missing = List.copyOf(absent);
    }

    /**
     * The binding of {@code pathOrName}, made by {@code make} from the opened library the first time and
     * kept in {@code cache} (drivers are never unloaded).
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} naming the library;
     *     {@link ErrorCode#NativeDirUnsafe} for a path another user could write
     */
    public static <B> B once(ConcurrentHashMap<String, B> cache, String pathOrName, Function<NativeLibrary, B> make) {
        Objects.requireNonNull(pathOrName, "pathOrName");
        B known = cache.get(pathOrName);
        if (known != null) return known;
        B fresh = make.apply(NativeLoader.load(pathOrName));
        B raced = cache.putIfAbsent(pathOrName, fresh);
        return raced != null ? raced : fresh;
    }

    /** Resolves every function of {@code functions} (name to exact descriptor) in {@code lib}. */
    public static DriverBinding bind(String backend, NativeLibrary lib, Map<String, FunctionDescriptor> functions) {
        return new DriverBinding(Objects.requireNonNull(backend, "backend"), Objects.requireNonNull(lib, "lib"),
                Collections.unmodifiableMap(new LinkedHashMap<>(functions))); // header order, for messages
    }

    /** "cuda", "hip": the first argument of the {@code Backend} errors. */
    public String backend() { return backend; }

    /** The path or loader name the library was opened by. */
    public String library() { return lib.name(); }

    /** The bound functions the library does not export. */
    public List<String> missing() { return missing; }

    /** The address of a bound function, or {@code null} when the library lacks it (see {@link #need}). */
    public MemorySegment address(String function) {
        if (!functions.containsKey(function)) throw new IllegalArgumentException("not bound: " + function);
        return resolved.get(function);
    }

    /** {@code address}, or {@code NativeUnavailable} naming {@code function} when it is {@code null}. */
    public MemorySegment need(MemorySegment address, String function) {
        if (address == null) throw lib.missing(function);
        return address;
    }

    /** A downcall handle of a bound function, or {@code NativeUnavailable} naming it. */
    public MethodHandle handle(String function) {
        return Linker.nativeLinker().downcallHandle(need(address(function), function), functions.get(function));
    }

    /**
     * Throws {@link ErrorCode#NativeUnavailable} naming the library and every function of {@code
     * required} it lacks; does nothing when all are there.
     */
    public void require(List<String> required) {
        List<String> lacking = required.stream().filter(f -> !resolved.containsKey(f)).toList();
        if (!lacking.isEmpty()) {
            throw NativeLibrary.unavailable(lib.name(), "it has no symbol " + String.join(", no symbol ", lacking), null);
        }
    }

    /** {@link ErrorCode#Backend}: (backend, call, status, the driver's error name, its description). */
    public ReactorException failure(String call, int status, String errorName, String errorString) {
        return new ReactorException(ErrorCode.Backend, backend, call, status, errorName, errorString);
    }

    @Override
    public String toString() { return backend + " " + lib.name(); }
}
