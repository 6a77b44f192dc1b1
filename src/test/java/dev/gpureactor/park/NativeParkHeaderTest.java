package dev.gpureactor.park;

import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.loader.NativeLoader;
import dev.gpureactor.core.CompletionLine;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The header is the source of truth: every function {@code garpark.h} declares must resolve in the built
 * library, and {@link NativePark}'s descriptor for it must be the one the C types give. Its constants must
 * match too. Then a few downcalls through the binding, on this machine's (refusing) path.
 */
class NativeParkHeaderTest {
    static final Path HEADER = Path.of("native/park/garpark.h");
    static final Pattern DECL = Pattern.compile("^GARPARK_API\\s+(\\w+)\\s+(garpark_\\w+)\\s*\\((.*)\\)\\s*;\\s*$");
    static final Pattern DEFINE = Pattern.compile("^#define\\s+(GARPARK_\\w+)\\s+(-?\\d+)\\b.*$");

    @TempDir static Path cache;
    static NativeLibrary lib;

    @BeforeAll
    static void load() {
        // Built by `mvn compile` (native/park/build.sh) into target/classes/native/<os>-<arch>/.
        assertTrue(NativeLoader.class.getClassLoader().getResource(NativeLoader.resourceOf("garpark")) != null,
            "the build put " + NativeLoader.resourceOf("garpark") + " on the classpath");
        lib = new NativeLoader(cache.resolve("gar")).extract(NativePark.LIBRARY);
    }

    static Map<String, FunctionDescriptor> headerFunctions() throws IOException {
        Map<String, FunctionDescriptor> out = new LinkedHashMap<>();
        int apiLines = 0;
        for (String line : Files.readAllLines(HEADER)) {
            if (!line.startsWith("GARPARK_API")) continue;
            apiLines++;
            Matcher m = DECL.matcher(line);
            if (!m.matches()) fail("a GARPARK_API line this test cannot parse (keep declarations on one line): " + line);
            List<MemoryLayout> args = new ArrayList<>();
            String params = m.group(3).trim();
            if (!params.equals("void")) {
                for (String p : params.split(",")) args.add(layoutOf(p.trim(), line));
            }
            String ret = m.group(1);
            FunctionDescriptor d = ret.equals("void")
                ? FunctionDescriptor.ofVoid(args.toArray(MemoryLayout[]::new))
                : FunctionDescriptor.of(layoutOf(ret, line), args.toArray(MemoryLayout[]::new));
            out.put(m.group(2), d);
        }
        assertEquals(apiLines, out.size(), "every GARPARK_API line declares one function");
        return out;
    }

    /** The C type of a parameter or result (with or without a name) as its layout. */
    static MemoryLayout layoutOf(String cdecl, String line) {
        // jextract's pointer: an address whose target is unbounded bytes (its C_POINTER)
        if (cdecl.contains("*")) return ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));
        String type = cdecl.replace("const ", "").trim().split("\\s+")[0];
        return switch (type) {
            case "int32_t", "uint32_t" -> ValueLayout.JAVA_INT;
            case "int64_t", "uint64_t" -> ValueLayout.JAVA_LONG;
            default -> fail("type " + type + " is not a fixed-width type this binding maps: " + line);
        };
    }

    @Test
    void everyHeaderFunctionResolvesWithTheBindingsDescriptor() throws IOException {
        Map<String, FunctionDescriptor> header = headerFunctions();
        assertTrue(header.size() >= 5, "parsed " + header.keySet());
        assertEquals(header.keySet(), NativePark.descriptors().keySet(), "the binding covers exactly the header's functions");
        for (var e : header.entrySet()) {
            assertTrue(lib.lookup().find(e.getKey()).isPresent(), e.getKey() + " is exported by " + lib);
            assertEquals(e.getValue(), NativePark.descriptors().get(e.getKey()), e.getKey() + "'s descriptor");
        }
        NativePark p = NativePark.bind(lib);
        assertEquals(NativePark.garpark_park$descriptor(), header.get("garpark_park"));
        assertEquals(lib.find("garpark_park"), p.garpark_park$address());
        assertEquals(p.garpark_park$handle().type(), NativePark.garpark_park$descriptor().toMethodType());
    }

    @Test
    void theHeadersConstantsAreTheBindings() throws Exception {
        int seen = 0;
        for (String line : Files.readAllLines(HEADER)) {
            Matcher m = DEFINE.matcher(line);
            if (!m.matches()) continue;
            int value = NativePark.class.getField(m.group(1)).getInt(null);
            assertEquals(Integer.parseInt(m.group(2)), value, m.group(1));
            seen++;
        }
        assertTrue(seen >= 10, "constants checked: " + seen);
        assertEquals(NativePark.GARPARK_ABI_VERSION, NativePark.bind(lib).garpark_abi_version());
    }

    @Test
    void downcallsThroughTheBinding() {
        NativePark p = NativePark.bind(lib);
        try (CompletionLine line = CompletionLine.allocate(); Arena arena = Arena.ofConfined()) {
            MemorySegment snap = arena.allocate(CompletionLine.BYTES, 8);
            assertEquals(0, p.garpark_differs(line.segment(), snap));
            for (int i = 0; i < CompletionLine.WORDS; i++) {
                line.store(dev.gpureactor.core.Slot.of(i), 7);
                assertEquals(1, p.garpark_differs(line.segment(), snap), "word " + i);
                line.store(dev.gpureactor.core.Slot.of(i), 0);
            }
            MemorySegment misaligned = line.segment().asSlice(8, 48);
            assertEquals(NativePark.GARPARK_BAD_ARG, p.garpark_park(misaligned, snap, 1_000));
            assertEquals(NativePark.GARPARK_BAD_ARG, p.garpark_differs(MemorySegment.NULL, snap));

            MemorySegment rate = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment note = arena.allocate(256);
            int flavour = p.garpark_probe(rate, note, 256);
            if (flavour == NativePark.GARPARK_NONE) {
                // This machine (a VM hiding waitpkg and monitorx): the park refuses, having run nothing.
                assertEquals(NativePark.GARPARK_REFUSED, p.garpark_park(line.segment(), snap, 10_000_000_000L));
            } else {
                snap.set(ValueLayout.JAVA_LONG, 16, 99);
                assertEquals(NativePark.GARPARK_CHANGED, p.garpark_park(line.segment(), snap, 10_000_000_000L));
            }
            long t0 = p.garpark_ticks();
            assertTrue(Long.compareUnsigned(p.garpark_ticks(), t0) >= 0, "the counter moves forward");
        }
    }
}
