package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real kernels (native/kernels/gar_kernels.cu, the jar's fatbin) through cuModuleLoadData and
 * cuLaunchKernel: on the stand-in, which emulates them by name (always), and on the real driver where
 * one is found. The fatbin is built by the build where nvcc is present; without it these tests fail,
 * since the kernel path is then untested (the CUDA toolkit is on this project's machines). The timeout
 * runs the test in a separate thread, so a spin or a native call that never returns is stopped and
 * reported (the GPU check's JVM goes on to the next test), and every spin has its own bound.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SuppressWarnings("restricted")
class CudaKernelTest {
    /** A spin on a word the device should write is bounded well inside the class's timeout. */
    static final long SPIN_BOUND_NANOS = 20_000_000_000L;

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void aSpinKernelRunsBeforeTheStoreBehindIt(String kind) {
        try (CudaRig rig = CudaRig.open(kind); var line = MappedLine.create(rig.cuda); CudaKernels k = CudaKernels.load(rig.cuda)) {
            CuStream s = rig.stream();
            k.spin(s, 2_000_000);
            line.enqueueStore(s, Slot.of(4), 7);
            rig.cuda.check("cuStreamSynchronize", CudaRaw.cuStreamSynchronize(rig.cuda, s.segment()));
            assertEquals(7, line.line().word(Slot.of(4)));
            if (rig.standinOnly()) {
                assertEquals(1, rig.hooks.counter("kernel_launch"));
                assertEquals(1, rig.hooks.counter("module_load"));
            }
            assertTrue(line.retire(s));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void theWriteKernelsPayloadIsSeenWithTheStore(String kind) {
        try (CudaRig rig = CudaRig.open(kind); var line = MappedLine.create(rig.cuda); CudaKernels k = CudaKernels.load(rig.cuda)) {
            CuStream s = rig.stream();
            long host = rig.mappedPage(4096);
            long device = rig.cuda.memHostDevicePointer(host);
            k.spin(s, 1_000_000);
            k.writeByte(s, device + 5, (byte) 42);
            line.enqueueStore(s, Slot.of(0), 1);
            long end = System.nanoTime() + SPIN_BOUND_NANOS;
            while (line.line().word(Slot.of(0)) != 1) { // acquire: the payload is visible
                if (System.nanoTime() - end > 0) {
                    fail("the store behind the kernels never reached the line within " + SPIN_BOUND_NANOS / 1_000_000_000
                            + " s: word " + line.line().word(Slot.of(0)) + ", expected 1");
                }
                Thread.onSpinWait();
            }
            assertEquals(42, MemorySegment.ofAddress(host).reinterpret(4096).get(JAVA_BYTE, 5));
            rig.cuda.check("cuStreamSynchronize", CudaRaw.cuStreamSynchronize(rig.cuda, s.segment()));
            assertTrue(line.retire(s));
        }
    }

    @Test
    void anImageTheDriverHasNoCodeForIsACodedErrorSayingWhatWouldRun() {
        try (CudaRig rig = CudaRig.standin()) {
            rig.hooks.set("no_binary", 1);
            ReactorException e = assertThrows(ReactorException.class, () -> CudaKernels.load(rig.cuda));
            assertEquals(ErrorCode.Backend, e.code());
            assertEquals("cuModuleLoadData", e.args().get(1));
            assertEquals("CUDA_ERROR_NO_BINARY_FOR_GPU", e.args().get(3));
            assertTrue(e.getMessage().contains("sm_90") && e.getMessage().contains("compute_90 PTX"), e.getMessage());
            assertEquals(0, rig.hooks.counter("module_load"));
        }
    }

    @Test
    void somethingThatIsNoKernelImageIsRefusedByTheDriver() {
        try (CudaRig rig = CudaRig.standin()) {
            ReactorException e = assertThrows(ReactorException.class, () -> CudaKernels.load(rig.cuda, new byte[64]));
            assertEquals(ErrorCode.Backend, e.code());
            assertEquals("CUDA_ERROR_INVALID_IMAGE", e.args().get(3));
        }
    }

    @Test
    void closeUnloadsTheModuleAndALaunchAfterItIsRefused() {
        try (CudaRig rig = CudaRig.standin()) {
            CudaKernels k = CudaKernels.load(rig.cuda);
            k.close();
            k.close();
            assertEquals(1, rig.hooks.counter("module_unload"));
            assertEquals(ErrorCode.ShutDown, assertThrows(ReactorException.class, () -> k.spin(rig.stream(), 1)).code());
        }
    }
}
