package dev.gpureactor.backend.metal;

import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.loader.NativeLoader;
import dev.gpureactor.core.Capability;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The Objective-C runtime ({@code libobjc}) and {@code Metal.framework} over FFM, for the
 * {@code MTLSharedEvent} port. <b>Written, not run</b>: it has never executed on a Mac; on any
 * other OS {@link #load()} refuses with {@link ErrorCode#NativeUnavailable} ("not macOS").
 *
 * <p>{@code MTLCreateSystemDefaultDevice} is the only Metal C entry point; everything else is
 * {@code objc_msgSend}. On Apple arm64 {@code objc_msgSend} must be called through a prototype that
 * matches the method exactly, never as a variadic function (variadic arguments go on the stack,
 * where the method does not look). So every message goes through one of the exact, non-variadic
 * {@link #SHAPES} (one downcall handle per distinct C signature), and each selector used is listed
 * with its shape in {@link #SELECTORS}. {@code BOOL} is one byte ({@code bool} on arm64, {@code
 * signed char} on x86_64): {@code JAVA_BYTE}; {@code NSUInteger} and {@code uint64_t} are {@code
 * JAVA_LONG}. No struct is passed or returned.
 */
@SuppressWarnings("restricted") // FFM: objc_msgSend is linked once per shape
public final class MetalRuntime {
    /** The Objective-C runtime's path. */
    public static final String OBJC_LIBRARY = "/usr/lib/libobjc.A.dylib";
    /** The Metal framework's path. */
    public static final String METAL_LIBRARY = "/System/Library/Frameworks/Metal.framework/Metal";

    /** The C entry points and their exact descriptors. */
    public static final Map<String, FunctionDescriptor> FUNCTIONS;
    /** The {@code objc_msgSend} shapes: one exact descriptor per distinct method signature. */
    public static final Map<String, FunctionDescriptor> SHAPES;
    /** Every selector sent, with the shape it is sent through. */
    public static final Map<String, String> SELECTORS;

    static {
        Map<String, FunctionDescriptor> f = new LinkedHashMap<>();
        f.put("objc_getClass", FunctionDescriptor.of(ADDRESS, ADDRESS));            // Class objc_getClass(const char *)
        f.put("sel_registerName", FunctionDescriptor.of(ADDRESS, ADDRESS));         // SEL sel_registerName(const char *)
        f.put("objc_autoreleasePoolPush", FunctionDescriptor.of(ADDRESS));          // void *objc_autoreleasePoolPush(void)
        f.put("objc_autoreleasePoolPop", FunctionDescriptor.ofVoid(ADDRESS));       // void objc_autoreleasePoolPop(void *)
        f.put("MTLCreateSystemDefaultDevice", FunctionDescriptor.of(ADDRESS));      // id<MTLDevice> MTLCreateSystemDefaultDevice(void)
        FUNCTIONS = Collections.unmodifiableMap(f);

        Map<String, FunctionDescriptor> s = new LinkedHashMap<>();
        s.put("id(id,SEL)", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        s.put("u64(id,SEL)", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
        s.put("BOOL(id,SEL,u64,u64)", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG));
        s.put("void(id,SEL,id,u64)", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
        s.put("void(id,SEL,u64)", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG));
        s.put("void(id,SEL)", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        SHAPES = Collections.unmodifiableMap(s);

        Map<String, String> sel = new LinkedHashMap<>();
        sel.put("newSharedEvent", "id(id,SEL)");                      // -[MTLDevice newSharedEvent] (+1)
        sel.put("signaledValue", "u64(id,SEL)");                      // -[MTLSharedEvent signaledValue]
        sel.put("setSignaledValue:", "void(id,SEL,u64)");             // -[MTLSharedEvent setSignaledValue:]
        sel.put("waitUntilSignaledValue:timeoutMS:", "BOOL(id,SEL,u64,u64)"); // macOS 12 / iOS 15
        sel.put("encodeSignalEvent:value:", "void(id,SEL,id,u64)");   // -[MTLCommandBuffer encodeSignalEvent:value:]
        sel.put("status", "u64(id,SEL)");                             // -[MTLCommandBuffer status] (NSUInteger)
        sel.put("error", "id(id,SEL)");                               // -[MTLCommandBuffer error] (autoreleased)
        sel.put("localizedDescription", "id(id,SEL)");                // -[NSError localizedDescription]
        sel.put("UTF8String", "id(id,SEL)");                          // -[NSString UTF8String] (a char *)
        sel.put("release", "void(id,SEL)");                           // -[NSObject release]
        SELECTORS = Collections.unmodifiableMap(sel);
    }

    private static volatile MetalRuntime instance;

    private final Map<String, MethodHandle> functions;
    private final Map<String, MethodHandle> shapes;
    private final ConcurrentHashMap<String, MemorySegment> selectors = new ConcurrentHashMap<>();

    private MetalRuntime(NativeLibrary objc, NativeLibrary metal) {
        Linker linker = Linker.nativeLinker();
        Map<String, MethodHandle> f = new LinkedHashMap<>();
        for (var e : FUNCTIONS.entrySet()) {
            NativeLibrary lib = e.getKey().startsWith("MTL") ? metal : objc;
            f.put(e.getKey(), lib.downcall(e.getKey(), e.getValue()).orElseThrow(() -> lib.missing(e.getKey())));
        }
        MemorySegment msgSend = objc.find("objc_msgSend");
        Map<String, MethodHandle> s = new LinkedHashMap<>();
        // No Linker.Option.firstVariadicArg: each message has its exact prototype.
        SHAPES.forEach((shape, fd) -> s.put(shape, linker.downcallHandle(msgSend, fd)));
        this.functions = Collections.unmodifiableMap(f);
        this.shapes = Collections.unmodifiableMap(s);
    }

    /** {@return whether this host can run Metal at all (macOS), and if not, why} */
    public static Capability available() {
        return isMacOs() ? Capability.present() : Capability.missing("not macOS");
    }

    static boolean isMacOs() {
        return System.getProperty("os.name", "").toLowerCase().startsWith("mac");
    }

    /**
     * {@return the runtime, loaded once}
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable}: ("Metal.framework", "not macOS")
     *     on any other OS; naming the library or symbol when one is missing
     */
    public static MetalRuntime load() {
        MetalRuntime rt = instance;
        if (rt != null) return rt;
        synchronized (MetalRuntime.class) {
            if (instance != null) return instance;
            if (!isMacOs()) throw NativeLibrary.unavailable("Metal.framework", "not macOS", null);
            // System libraries at fixed paths (in the dyld shared cache, not necessarily files): the linker's own load.
            instance = new MetalRuntime(NativeLoader.loadSystem(OBJC_LIBRARY), NativeLoader.loadSystem(METAL_LIBRARY));
            return instance;
        }
    }

    /** The selector of a name in {@link #SELECTORS}. */
    MemorySegment sel(String name) {
        if (!SELECTORS.containsKey(name)) throw new IllegalArgumentException("selector not declared: " + name);
        return selectors.computeIfAbsent(name, n -> {
            try (Arena a = Arena.ofConfined()) {
                return (MemorySegment) functions.get("sel_registerName").invokeExact(a.allocateFrom(n));
            } catch (Throwable t) {
                throw NativeLibrary.rethrow(t);
            }
        });
    }

    private MethodHandle shape(String selector, String expected) {
        String shape = SELECTORS.get(selector);
        if (!expected.equals(shape)) throw new IllegalArgumentException(selector + " is sent as " + shape + ", not " + expected);
        return shapes.get(shape);
    }

    MemorySegment sendId(MemorySegment receiver, String selector) {
        try {
            return (MemorySegment) shape(selector, "id(id,SEL)").invokeExact(receiver, sel(selector));
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    long sendU64(MemorySegment receiver, String selector) {
        try {
            return (long) shape(selector, "u64(id,SEL)").invokeExact(receiver, sel(selector));
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    boolean sendBoolU64U64(MemorySegment receiver, String selector, long a, long b) {
        try {
            return (byte) shape(selector, "BOOL(id,SEL,u64,u64)").invokeExact(receiver, sel(selector), a, b) != 0;
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    void sendVoidIdU64(MemorySegment receiver, String selector, MemorySegment arg, long value) {
        try {
            shape(selector, "void(id,SEL,id,u64)").invokeExact(receiver, sel(selector), arg, value);
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    void sendVoidU64(MemorySegment receiver, String selector, long value) {
        try {
            shape(selector, "void(id,SEL,u64)").invokeExact(receiver, sel(selector), value);
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    void sendVoid(MemorySegment receiver, String selector) {
        try {
            shape(selector, "void(id,SEL)").invokeExact(receiver, sel(selector));
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    MemorySegment poolPush() {
        try {
            return (MemorySegment) functions.get("objc_autoreleasePoolPush").invokeExact();
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    void poolPop(MemorySegment pool) {
        try {
            functions.get("objc_autoreleasePoolPop").invokeExact(pool);
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    /** {@code MTLCreateSystemDefaultDevice()}; NULL when the machine has no Metal device. */
    MemorySegment systemDefaultDevice() {
        try {
            return (MemorySegment) functions.get("MTLCreateSystemDefaultDevice").invokeExact();
        } catch (Throwable t) { throw NativeLibrary.rethrow(t); }
    }

    /** The names of the C entry points and shapes, for tests: the non-variadic contract, spelled out. */
    static List<String> shapeNames() { return List.copyOf(SHAPES.keySet()); }
}
