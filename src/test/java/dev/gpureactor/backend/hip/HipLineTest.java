package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.hip.raw.HipRaw;
import dev.gpureactor.backend.HeaderDecls.Decl;
import dev.gpureactor.backend.HeaderDecls;
import dev.gpureactor.backend.HostFns;
import dev.gpureactor.backend.LineContract;
import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.backend.WordPark;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;
import dev.gpureactor.loader.NativeLibrary;
import dev.gpureactor.loader.NativeLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.FunctionDescriptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static dev.gpureactor.backend.PortWaits.FLAG;
import static dev.gpureactor.backend.PortWaits.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HIP line and port end to end: the stand-in always, the real libamdhip64.so where found. The
 * ownership rules are shared with CUDA (MappedPage) and what every vendor's line does is {@link
 * LineContract}'s, so this is the smaller set: the binding's own calls, flags and errors, the shared
 * rules once more through the HIP table.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@SuppressWarnings("restricted")
class HipLineTest extends LineContract<HipStream, HipPort, HipRig> {
    @Override
    protected HipRig open(String kind) { return HipRig.open(kind); }

    @Override
    protected MappedLine<HipStream, HipPort> line(HipRig rig) { return MappedLine.create(rig.hip); }


    @Test
    void everyDeclarationResolvesAndEveryDescriptorMatchesTheHeader() throws Exception {
        List<Decl> decls = HeaderDecls.parse(Standin.header("standin_hip.h"));
        NativeLibrary lib = NativeLoader.load(Standin.library(Standin.HIP));
        Map<String, FunctionDescriptor> bound = HipRuntime.functions();
        Set<String> seen = new HashSet<>();
        for (Decl d : decls) {
            assertTrue(lib.symbol(d.name()).isPresent(), d.name() + " does not resolve");
            FunctionDescriptor fd = bound.containsKey(d.name()) ? bound.get(d.name()) : StandinHooks.FUNCTIONS.get(d.name());
            assertTrue(fd != null, d.name() + " is declared but neither bound nor a hook");
            assertEquals(d.shape(), HeaderDecls.shape(fd), "descriptor of " + d.name() + " vs `" + d.text() + "`");
            seen.add(d.name());
        }
        assertTrue(seen.containsAll(bound.keySet()), "every bound function is declared");
        assertTrue(seen.containsAll(StandinHooks.FUNCTIONS.keySet()));
        HipRuntime hip = HipRuntime.load(Standin.library(Standin.HIP));
        assertTrue(hip.missing().isEmpty());
        assertEquals("hipErrorLaunchFailure", hip.errorName(HipRaw.hipErrorLaunchFailure));
        assertEquals("hipErrorNotReady", hip.errorName(HipRaw.hipErrorNotReady));
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void lifetime(String kind) throws Exception {
        try (HipRig rig = HipRig.open(kind)) {
            long refs = rig.standinOnly() ? rig.hooks.primaryRefs(0) : -1;
            var line = MappedLine.create(rig.hip);
            assertArrayEquals(new long[8], line.line().snapshot());
            assertEquals(0, line.device());
            assertNotEquals(0, line.deviceAddress());
            if (rig.standinOnly()) {
                assertEquals(HipRaw.hipHostMallocMapped | HipRaw.hipHostMallocCoherent, rig.hooks.lastAllocFlags(),
                        "Mapped|Coherent, never WriteCombined");
                assertEquals(refs + 1, rig.hooks.primaryRefs(0));
                assertNotEquals(line.page().hostAddress(), line.deviceAddress());
            }
            HipStream s = rig.stream();
            HostFns.Gate gate = rig.gate(s);
            HipPort port = line.port(s, Slot.of(2), 11, gate.openOnFirstPark(WordPark.spinThenPark()));
            port.arm();
            assertFalse(port.query());
            assertInstanceOf(Outcome.Exact.class, await(port, FLAG));
            assertEquals(11, line.line().word(Slot.of(2)));
            line.close();
            assertTrue(line.isFreed());
            if (rig.standinOnly()) {
                assertEquals(1, rig.hooks.counter("host_free"));
                assertEquals(refs, rig.hooks.primaryRefs(0));
                assertTrue(rig.hooks.counter("seq_last_host_free") < rig.hooks.counter("seq_last_primary_release"));
                assertEquals(0, rig.hooks.counter("free_under_pending"));
            }
        }
    }

    @Test
    void aFailingKernelFailsTheWaitWithTheRuntimesErrorName() throws Exception {
        try (HipRig rig = HipRig.standin()) {
            var line = MappedLine.create(rig.hip);
            HipStream s = rig.stream();
            rig.hooks.launchFail(s.handle(), 1_000);
            HipPort port = line.port(s, Slot.of(0), 1);
            port.arm(); // queued behind the kernel, whether or not it has failed yet
            ReactorException e = assertThrows(ReactorException.class, () -> await(port, FLAG));
            assertEquals(ErrorCode.Backend, e.code());
            assertEquals(List.of("hip", "hipStreamQuery", "719", "hipErrorLaunchFailure", "unspecified launch failure"), e.args());
            ReactorException blocked = assertThrows(ReactorException.class, port::block);
            assertTrue(blocked.getMessage().contains("hipStreamSynchronize") && blocked.getMessage().contains("hipErrorLaunchFailure"));
            line.close();
            assertTrue(line.isLeaked());
            assertEquals(ErrorCode.LineLeaked, line.warnings().getFirst().code());
        }
    }

    @Test
    void aStreamOfAnotherDeviceIsRefused() {
        try (HipRig rig = HipRig.standin(); var line = MappedLine.create(rig.hip)) {
            rig.hip.setDevice(1);
            HipStream other = rig.stream();
            rig.hip.setDevice(0);
            ReactorException e = assertThrows(ReactorException.class, () -> line.enqueueStore(other, Slot.of(0), 1));
            assertEquals(ErrorCode.ForeignStream, e.code());
            assertTrue(e.getMessage().contains("device 1"), e.getMessage());
        }
    }

    @Test
    void aStreamThatNeverSettlesLeaksThePage() {
        try (HipRig rig = HipRig.standin()) {
            List<Warning> sink = new CopyOnWriteArrayList<>();
            var line = MappedLine.create(rig.hip, LineOptions.defaults().withSettleTimeout(Duration.ofMillis(100)).withWarnings(sink::add));
            HipStream s = rig.stream();
            rig.hooks.launchHang(s.handle());
            line.enqueueStore(s, Slot.of(0), 1);
            line.close();
            assertTrue(line.isLeaked());
            assertEquals(ErrorCode.LineLeaked, sink.getFirst().code());
            assertEquals(0, rig.hooks.counter("host_free"));
        }
    }

    @Test
    void anAllocationFailureIsABackendErrorAndGivesTheContextBack() {
        try (HipRig rig = HipRig.standin()) {
            long refs = rig.hooks.primaryRefs(0);
            rig.hooks.set("fail_alloc", 1);
            ReactorException e = assertThrows(ReactorException.class, () -> MappedLine.create(rig.hip));
            assertEquals(ErrorCode.Backend, e.code());
            assertTrue(e.getMessage().contains("hipErrorOutOfMemory") && e.getMessage().contains("hipHostMalloc"), e.getMessage());
            assertEquals(refs, rig.hooks.primaryRefs(0));
        }
    }

    @Test
    void theNullStreamOfTheLinesDeviceWorksFromAnotherThread() throws Exception {
        try (HipRig rig = HipRig.standin(); var line = MappedLine.create(rig.hip)) {
            rig.hooks.launchSleep(0, 5_000); // on the null stream of device 0
            HipPort port = line.port(HipStream.NULL, Slot.of(3), 1);
            port.arm();
            List<Object> result = new ArrayList<>();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    rig.hip.setDevice(1); // another current device: the port makes the line's current around its calls
                    result.add(await(port, FLAG));
                    result.add(rig.hip.currentDevice());
                } catch (Throwable e) {
                    result.add(e);
                }
            });
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertInstanceOf(Outcome.class, result.get(0), String.valueOf(result));
            assertEquals(1, result.get(1), "the thread's own device is restored");
            assertEquals(1, line.line().word(Slot.of(3)));
        }
    }

    @Test
    void aMissingLibraryIsACodedErrorNamingThePath() {
        String path = "/nonexistent/gar/libamdhip64.so";
        ReactorException e = assertThrows(ReactorException.class, () -> HipRuntime.load(path));
        assertEquals(ErrorCode.NativeUnavailable, e.code());
        assertTrue(e.getMessage().contains(path), e.getMessage());
    }
}
