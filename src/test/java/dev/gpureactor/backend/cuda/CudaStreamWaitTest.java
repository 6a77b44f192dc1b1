package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two entry points the GPU run adds to the typed layer: {@code cuStreamWaitValue64_v2} (the
 * stream stands still until the host writes a word; step 4 of docs/GPU.md) and {@code
 * cuDevicePrimaryCtxSetFlags_v2} (the blocking-sync baseline of step 3). Stand-in always, the real
 * driver where there is one. No timing assertions: the word is checked before and after the host's
 * write, whatever the delays.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SuppressWarnings("restricted")
class CudaStreamWaitTest {
    static final VarHandle WORD = JAVA_LONG.varHandle();

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void theStoreWaitsForTheHostWrittenWord(String kind) throws Exception {
        try (CudaRig rig = CudaRig.open(kind); var line = MappedLine.create(rig.cuda)) {
            CuStream s = rig.stream();
            long goHost = rig.mappedPage(4096);
            long goDevice = rig.cuda.memHostDevicePointer(goHost);
            MemorySegment go = MemorySegment.ofAddress(goHost).reinterpret(8);

            rig.cuda.check("cuStreamWaitValue64_v2",
                    CudaRaw.cuStreamWaitValue64_v2(rig.cuda, s.segment(), goDevice, 3, CudaRaw.CU_STREAM_WAIT_VALUE_GEQ));
            CudaPort port = line.port(s, Slot.of(2), 1);
            port.arm(); // the store, behind the wait

            WORD.setRelease(go, 0L, 2L); // below the target: the stream still waits
            for (int i = 0; i < 20; i++) {
                assertEquals(0, line.line().word(Slot.of(2)), "no store before the host's word reaches 3");
                assertFalse(port.query(), "the stream is pending while it waits");
                Thread.sleep(1);
            }
            WORD.setRelease(go, 0L, 3L);
            dev.gpureactor.core.Wait.run(WaitPlan.recommended(), port, dev.gpureactor.core.Clock.system(),
                    dev.gpureactor.core.Sleeper.system(), java.util.OptionalLong.empty());
            assertEquals(1, line.line().word(Slot.of(2)), "the store ran once the word reached 3");
            assertTrue(port.query());
            if (rig.standinOnly()) assertEquals(1, rig.hooks.counter("wait_value"), "one cuStreamWaitValue64_v2");
            assertTrue(line.retire(s));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void thePrimaryContextTakesTheBlockingSyncFlag(String kind) throws Exception {
        try (CudaRig rig = CudaRig.open(kind)) {
            rig.cuda.primaryContextSetFlags(rig.device, CudaRaw.CU_CTX_SCHED_BLOCKING_SYNC); // throws a coded Backend error if refused
            if (rig.standinOnly()) assertEquals(1, rig.hooks.counter("primary_set_flags"));
            CuStream s = rig.stream();
            assertEquals(CudaRaw.CUDA_SUCCESS, CudaRaw.cuStreamSynchronize(rig.cuda, s.segment()));
            rig.cuda.primaryContextSetFlags(rig.device, CudaRaw.CU_CTX_SCHED_AUTO);
        }
    }
}
