package dev.gpureactor.cli;

import dev.gpureactor.backend.BackendReport;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.cuda.CudaBackend;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.hip.HipBackend;
import dev.gpureactor.backend.hip.HipRuntime;
import dev.gpureactor.core.ErrorCode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackendProbeTest {
    @Test
    void theProbeListsEachBackendFromTheConfiguredLibraries() {
        String cudaBefore = System.getProperty(CudaDriver.LIBRARY_PROPERTY);
        String hipBefore = System.getProperty(HipRuntime.LIBRARY_PROPERTY);
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, Standin.library(Standin.CUDA));
        System.setProperty(HipRuntime.LIBRARY_PROPERTY, Standin.library(Standin.HIP));
        try {
            List<BackendReport> all = BackendProbe.report();
            assertEquals(List.of("cuda", "hip", "metal"), all.stream().map(BackendReport::backend).toList());
            BackendReport cuda = all.get(0);
            assertTrue(cuda.found(), cuda.render());
            assertEquals(2, cuda.devices().size(), cuda.render());
            assertEquals("GAR stand-in CUDA device 0", cuda.devices().getFirst().name());
            assertTrue(cuda.devices().getFirst().streamMemOps(), cuda.render());
            assertTrue(cuda.devices().getFirst().memOps().contains("attribute 122 answered"), cuda.render());
            assertTrue(cuda.why().startsWith("driver 13.0, 2 device(s)"), cuda.why());
            BackendReport hip = all.get(1);
            assertTrue(hip.found(), hip.render());
            assertEquals(2, hip.devices().size());
            assertTrue(all.get(2).render().startsWith("metal: not found"), all.get(2).render());
        } finally {
            restore(CudaDriver.LIBRARY_PROPERTY, cudaBefore);
            restore(HipRuntime.LIBRARY_PROPERTY, hipBefore);
        }
    }

    @Test
    void aDriverWithoutTheV2EntryPointIsFoundButCannotMakeLines() {
        BackendReport r = CudaBackend.probe(Standin.library(Standin.CUDA_NO_V2));
        assertTrue(r.found());
        assertTrue(r.why().contains("no lines (missing cuStreamWriteValue64_v2): query plan only"), r.why());
    }

    /** A device of a driver that cannot store into a line is not usable, whatever its attributes say. */
    @Test
    void aDriverWithoutTheV2EntryPointListsNoDeviceAsUsable() {
        BackendReport r = CudaBackend.probe(Standin.library(Standin.CUDA_NO_V2));
        assertFalse(r.devices().isEmpty(), r.render());
        for (var d : r.devices()) {
            assertFalse(d.streamMemOps(), r.render());
            assertEquals("missing cuStreamWriteValue64_v2", d.memOps(), r.render());
        }
    }

    @Test
    void aMissingLibrarySaysWhy() {
        BackendReport cuda = CudaBackend.probe("/nonexistent/libcuda.so.1");
        assertFalse(cuda.found());
        assertTrue(cuda.why().startsWith(ErrorCode.NativeUnavailable.tag()) && cuda.why().contains("/nonexistent/libcuda.so.1"), cuda.why());
        assertTrue(cuda.devices().isEmpty());
        BackendReport hip = HipBackend.probe("/nonexistent/libamdhip64.so");
        assertFalse(hip.found());
        assertTrue(hip.render().startsWith("hip: not found (/nonexistent/libamdhip64.so): GAR-0013"), hip.render());
    }

    /** The backend layer uses core, loader (its one native-library loader) and the JDK only (ArchitectureTest's layers). */
    @Test
    void theBackendDependsOnCoreLoaderAndTheJdkOnly() throws IOException {
        Path root = Path.of(System.getProperty("user.dir"), "src", "main", "java", "dev", "gpureactor", "backend");
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (!line.startsWith("import ")) continue;
                    String what = line.substring(7).replace("static ", "");
                    boolean ok = what.startsWith("java.") || what.startsWith("dev.gpureactor.core.") || what.startsWith("dev.gpureactor.loader.")
                            || what.startsWith("dev.gpureactor.backend.");
                    assertTrue(ok, f + ": " + line);
                }
            }
        }
    }

    private static void restore(String key, String before) {
        if (before == null) System.clearProperty(key);
        else System.setProperty(key, before);
    }
}
