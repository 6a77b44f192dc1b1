package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.backend.hip.HipPort;
import dev.gpureactor.backend.hip.HipRuntime;
import dev.gpureactor.backend.hip.HipStream;
import dev.gpureactor.core.Clock;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Wait;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The examples of docs/CUDA.md and docs/HIP.md, as written, against the stand-ins (a sleeping kernel stands in for "your kernels"). */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DocExampleTest {
    @Test
    void theCudaExampleRuns() throws Exception {
        String before = System.getProperty(CudaDriver.LIBRARY_PROPERTY);
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, Standin.library(Standin.CUDA));
        StandinHooks hooks = new StandinHooks(Standin.library(Standin.CUDA));
        try {
            CudaDriver cuda = CudaDriver.load();
            cuda.ensureInitialized();
            int dev = cuda.device(0);
            cuda.setCurrent(cuda.primaryContextRetain(dev));
            CuStream stream = cuda.newStream();

            try (var line = MappedLine.create(cuda)) {
                hooks.launchSleep(stream.handle(), 10_000); // "your kernels"
                CudaPort port = line.port(stream, Slot.of(0), 1);
                port.arm();
                Outcome o = Wait.run(port.recommendedPlan(), port,
                        Clock.system(), Sleeper.system(), OptionalLong.empty());
                assertEquals(1, line.line().word(Slot.of(0)), String.valueOf(o));
                assertTrue(line.retire(stream));
                cuda.streamDestroy(stream.handle());
            }
            cuda.primaryContextRelease(dev);
        } finally {
            if (before == null) System.clearProperty(CudaDriver.LIBRARY_PROPERTY);
            else System.setProperty(CudaDriver.LIBRARY_PROPERTY, before);
        }
    }

    @Test
    void theHipExampleRuns() throws Exception {
        String before = System.getProperty(HipRuntime.LIBRARY_PROPERTY);
        System.setProperty(HipRuntime.LIBRARY_PROPERTY, Standin.library(Standin.HIP));
        StandinHooks hooks = new StandinHooks(Standin.library(Standin.HIP));
        try {
            HipRuntime hip = HipRuntime.load();
            hip.setDevice(0);
            HipStream stream = HipStream.ofRaw(hip.streamCreate());

            try (var line = MappedLine.create(hip)) {
                hooks.launchSleep(stream.handle(), 10_000);
                HipPort port = line.port(stream, Slot.of(0), 1);
                port.arm();
                Outcome o = Wait.run(port.recommendedPlan(), port,
                        Clock.system(), Sleeper.system(), OptionalLong.empty());
                assertEquals(1, line.line().word(Slot.of(0)), String.valueOf(o));
                assertTrue(line.retire(stream));
                hip.streamDestroy(stream.handle());
            }
        } finally {
            if (before == null) System.clearProperty(HipRuntime.LIBRARY_PROPERTY);
            else System.setProperty(HipRuntime.LIBRARY_PROPERTY, before);
        }
    }
}
