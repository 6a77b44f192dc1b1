package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.HeaderDecls;
import dev.gpureactor.backend.HeaderDecls.Decl;
import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.loader.NativeLoader;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * standin_cuda.h is the source of truth for the binding: every declaration resolves in the built
 * stand-in, and every Java descriptor has exactly the C types declared there (the native build in
 * turn checks the header against NVIDIA's cuda.h where one is installed).
 */
class CudaHeaderTest {
    /** Declared by the header, deliberately not bound: the binding must never call the v1 write-value. */
    private static final Set<String> UNBOUND = Set.of("cuStreamWriteValue64");

    @Test
    void everyDeclarationResolvesAndEveryDescriptorMatchesTheHeader() throws Exception {
        List<Decl> decls = HeaderDecls.parse(Standin.header("standin_cuda.h"));
        assertTrue(decls.size() > 30, "parsed " + decls.size());
        NativeLibrary lib = NativeLoader.load(Standin.library(Standin.CUDA));
        Map<String, FunctionDescriptor> bound = CudaDriver.functions();
        Set<String> seen = new HashSet<>();
        for (Decl d : decls) {
            assertTrue(lib.symbol(d.name()).isPresent(), d.name() + " does not resolve in the stand-in");
            FunctionDescriptor fd = bound.containsKey(d.name()) ? bound.get(d.name()) : StandinHooks.FUNCTIONS.get(d.name());
            if (fd == null) {
                assertTrue(UNBOUND.contains(d.name()), d.name() + " is declared but neither bound nor a known hook");
                continue;
            }
            assertEquals(d.shape(), HeaderDecls.shape(fd), "descriptor of " + d.name() + " vs `" + d.text() + "`");
            seen.add(d.name());
        }
        for (String name : bound.keySet()) assertTrue(seen.contains(name), name + " is bound but not declared in standin_cuda.h");
        for (String name : StandinHooks.FUNCTIONS.keySet()) assertTrue(seen.contains(name), "hook " + name + " not declared");
        assertTrue(CudaDriver.load(Standin.library(Standin.CUDA)).missing().isEmpty());
    }

    @Test
    void theNoV2StandInLacksExactlyTheV2WriteValue() throws Exception {
        NativeLibrary lib = NativeLoader.load(Standin.library(Standin.CUDA_NO_V2));
        for (Decl d : HeaderDecls.parse(Standin.header("standin_cuda.h"))) {
            boolean present = lib.symbol(d.name()).isPresent();
            if (d.name().equals("cuStreamWriteValue64_v2")) {
                assertTrue(d.guarded(), "the _v2 declaration sits under #ifndef GAR_STANDIN_NO_V2");
                assertFalse(present, "nov2 stand-in still exports " + d.name());
            } else {
                assertTrue(present, d.name() + " missing from the nov2 stand-in");
            }
        }
        assertEquals(List.of("cuStreamWriteValue64_v2"), CudaDriver.load(Standin.library(Standin.CUDA_NO_V2)).missing());
    }

    @Test
    void aMissingSymbolIsACodedErrorNamingIt() {
        CudaDriver nov2 = CudaDriver.load(Standin.library(Standin.CUDA_NO_V2));
        ReactorException e = assertThrows(ReactorException.class, () -> nov2.handle("cuStreamWriteValue64_v2"));
        assertEquals(ErrorCode.NativeUnavailable, e.code());
        assertTrue(e.getMessage().contains("cuStreamWriteValue64_v2"), e.getMessage());
        assertTrue(e.getMessage().contains(Standin.CUDA_NO_V2), e.getMessage());
        assertNotNull(nov2.handle("cuStreamQuery"));
    }

    @Test
    void errorNamesComeFromTheDriver() {
        CudaDriver cuda = CudaDriver.load(Standin.library(Standin.CUDA));
        assertEquals("CUDA_ERROR_LAUNCH_FAILED", cuda.errorName(CudaRaw.CUDA_ERROR_LAUNCH_FAILED));
        assertEquals("unspecified launch failure", cuda.errorString(CudaRaw.CUDA_ERROR_LAUNCH_FAILED));
        assertEquals("CUDA_ERROR_NOT_READY", cuda.errorName(CudaRaw.CUDA_ERROR_NOT_READY));
        assertEquals("CUresult 4242", cuda.errorName(4242), "a status the driver does not name");
        ReactorException e = cuda.failure("cuStreamQuery", CudaRaw.CUDA_ERROR_OUT_OF_MEMORY);
        assertEquals(ErrorCode.Backend, e.code());
        assertEquals(List.of("cuda", "cuStreamQuery", "2", "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"), e.args());
        if (!e.getMessage().contains("CUDA_ERROR_OUT_OF_MEMORY")) fail(e.getMessage());
    }
}
