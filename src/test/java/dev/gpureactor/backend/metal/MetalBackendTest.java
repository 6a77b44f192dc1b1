package dev.gpureactor.backend.metal;

import dev.gpureactor.backend.BackendReport;
import dev.gpureactor.backend.HeaderDecls;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Metal cannot run here: written, not run. Off macOS it must say so with its code; its message
 * shapes must be the exact, non-variadic prototypes of the methods it sends.
 */
@SuppressWarnings("restricted")
class MetalBackendTest {
    @Test
    void offMacOsItReportsUnavailableWithItsCode() {
        // Why skipped on macOS: there the runtime loads, which is not this test's behaviour. No macOS
        // machine builds this project, so the loading half is written, not run (docs/METAL.md); the
        // message shapes, the part that can be checked anywhere, are tested below on every system.
        assumeFalse(MetalRuntime.isMacOs(), "on macOS the runtime loads; this test is for the other systems");
        assertFalse(MetalRuntime.available().isPresent());
        assertEquals("missing: not macOS", MetalRuntime.available().toString());

        ReactorException e = assertThrows(ReactorException.class, MetalRuntime::load);
        assertEquals(ErrorCode.NativeUnavailable, e.code());
        assertTrue(e.getMessage().contains("unavailable: not macOS"), e.getMessage());

        ReactorException create = assertThrows(ReactorException.class, SharedEvent::create);
        assertEquals(ErrorCode.NativeUnavailable, create.code());
        assertTrue(create.getMessage().contains("unavailable: not macOS"), create.getMessage());

        BackendReport r = MetalBackend.probe();
        assertEquals("metal", r.backend());
        assertFalse(r.found());
        assertTrue(r.why().contains("unavailable: not macOS"), r.why());
        assertTrue(r.why().startsWith(ErrorCode.NativeUnavailable.tag()), r.why());
        assertTrue(r.devices().isEmpty());
    }

    @Test
    void everyMessageGoesThroughAnExactNonVariadicShape() {
        // the shapes are spelled out in C; each descriptor is exactly its spelling
        Map<String, String> expected = Map.of(
                "id(id,SEL)", "ptr(ptr,ptr)",
                "u64(id,SEL)", "i64(ptr,ptr)",
                "BOOL(id,SEL,u64,u64)", "i8(ptr,ptr,i64,i64)",
                "void(id,SEL,id,u64)", "void(ptr,ptr,ptr,i64)",
                "void(id,SEL,u64)", "void(ptr,ptr,i64)",
                "void(id,SEL)", "void(ptr,ptr)");
        assertEquals(expected.keySet(), MetalRuntime.SHAPES.keySet());
        MetalRuntime.SHAPES.forEach((name, fd) -> assertEquals(expected.get(name), HeaderDecls.shape(fd), name));
        // each selector's argument count matches its shape: receiver, SEL, one per colon
        MetalRuntime.SELECTORS.forEach((selector, shape) -> {
            FunctionDescriptor fd = MetalRuntime.SHAPES.get(shape);
            assertNotNull(fd, selector + " uses an undeclared shape " + shape);
            long colons = selector.chars().filter(c -> c == ':').count();
            assertEquals(2 + colons, fd.argumentLayouts().size(), selector + " sent as " + shape);
        });
        assertEquals("i64(ptr,ptr)", HeaderDecls.shape(MetalRuntime.SHAPES.get(MetalRuntime.SELECTORS.get("signaledValue"))));
        assertEquals("i8(ptr,ptr,i64,i64)",
                HeaderDecls.shape(MetalRuntime.SHAPES.get(MetalRuntime.SELECTORS.get("waitUntilSignaledValue:timeoutMS:"))));
        // and every shape links on this platform's ABI without a variadic option
        Linker linker = Linker.nativeLinker();
        MetalRuntime.SHAPES.values().forEach(fd -> assertNotNull(linker.downcallHandle(fd)));
        MetalRuntime.FUNCTIONS.values().forEach(fd -> assertNotNull(linker.downcallHandle(fd)));
    }
}
