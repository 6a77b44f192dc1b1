package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.HostFns;
import dev.gpureactor.backend.LineContract;
import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.core.Clock;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Wait;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static dev.gpureactor.backend.PortWaits.FLAG;
import static dev.gpureactor.backend.PortWaits.await;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA line and port end to end, beyond what {@link LineContract} runs for every vendor. Each test runs against the stand-in driver (always) and
 * against the real libcuda.so.1 where one is found (a JUnit assumption with the reason otherwise).
 * Counters of the stand-in check what the real driver cannot show (frees, retains, flags).
 * No timing assertions: the waits are ordered by gates; timeouts are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SuppressWarnings("restricted")
class CudaLineTest extends LineContract<CuStream, CudaPort, CudaRig> {
    @Override
    protected CudaRig open(String kind) { return CudaRig.open(kind); }

    @Override
    protected MappedLine<CuStream, CudaPort> line(CudaRig rig) { return MappedLine.create(rig.cuda); }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void lifetime(String kind) throws Exception {
        try (CudaRig rig = CudaRig.open(kind)) {
            long refs = rig.standinOnly() ? rig.hooks.primaryRefs(0) : -1;
            List<Warning> sink = new ArrayList<>();
            var line = MappedLine.create(rig.cuda, LineOptions.defaults().withWarnings(sink::add));
            assertArrayEquals(new long[8], line.line().snapshot(), "a fresh line reads 0 (driver memory is not zeroed)");
            assertEquals(rig.device, line.device());
            assertEquals(rig.primary, line.context(), "owned by the primary context");
            assertNotEquals(0, line.deviceAddress());
            assertEquals(line.deviceAddress() + 8 * 5, line.deviceAddress(Slot.of(5)));
            assertTrue(line.stores().usable(), line.stores().detail());
            if (rig.standinOnly()) {
                assertEquals(refs + 1, rig.hooks.primaryRefs(0), "the line retains the primary context");
                assertEquals(CudaRaw.CU_MEMHOSTALLOC_DEVICEMAP | CudaRaw.CU_MEMHOSTALLOC_PORTABLE, rig.hooks.lastAllocFlags(),
                        "DEVICEMAP|PORTABLE, never WRITECOMBINED");
                assertNotEquals(line.page().hostAddress(), line.deviceAddress(), "the device address comes from the driver");
                assertEquals(CudaRaw.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, StreamMemOps.read(rig.cuda, line.device()).answeredBy(),
                        "attribute 122 decides although the legacy 92 reads 0 (the GB10 pitfall)");
            }

            CuStream s = rig.stream();
            CudaPort port = line.port(s, Slot.of(5), 42);
            port.arm(); // on an idle stream a wait ends at its first query, before arming
            port.arm(); // once only
            Outcome o = await(port, WaitPlan.recommended());
            assertInstanceOf(Outcome.class, o);
            assertTrue(port.isArmed());
            assertEquals(42, line.line().word(Slot.of(5)));
            assertTrue(port.query());

            line.close();
            assertTrue(line.isFreed());
            assertFalse(line.isLeaked());
            assertTrue(line.warnings().isEmpty(), line.warnings().toString());
            assertTrue(sink.isEmpty());
            if (rig.standinOnly()) {
                assertEquals(1, rig.hooks.counter("host_alloc"));
                assertEquals(1, rig.hooks.counter("host_free"));
                assertEquals(refs, rig.hooks.primaryRefs(0), "released after the free");
                assertTrue(rig.hooks.counter("seq_last_host_free") < rig.hooks.counter("seq_last_primary_release"),
                        "the page is freed before the context is released");
                assertEquals(0, rig.hooks.counter("free_under_pending"));
                assertEquals(0, rig.hooks.counter("free_after_domain_gone"));
                assertEquals(0, rig.hooks.counter("release_unretained"));
                assertEquals(1, rig.hooks.counter("write_value"), "one cuStreamWriteValue64_v2");
                assertEquals(0, rig.hooks.counter("write_value_v1"), "never the v1 entry point");
            }
            ReactorException closed = assertThrows(ReactorException.class, () -> line.enqueueStore(s, Slot.of(0), 1));
            assertEquals(ErrorCode.LineClosed, closed.code());
            assertEquals(ErrorCode.LineClosed, assertThrows(ReactorException.class, () -> line.line().word(Slot.of(0))).code());
            line.close(); // idempotent
            if (rig.standinOnly()) assertEquals(1, rig.hooks.counter("host_free"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void aStreamOfAnotherContextIsRefused(String kind) throws Exception {
        try (CudaRig rig = CudaRig.open(kind)) {
            // Only a real driver older than CUDA 12.5 lacks the entry point that makes a second context;
            // the stand-in has it, so the refusal is tested in every build.
            assumeTrue(!rig.cuda.missing().contains("cuCtxCreate_v4"), "skipped: this driver has no cuCtxCreate_v4 (before CUDA 12.5);"
                    + " the stand-in driver has it, so the refusal of a foreign context runs on the stand-in in every build");
            var line = MappedLine.create(rig.cuda);
            long foreignCtx;
            long foreignStream;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment pctx = a.allocate(ADDRESS);
                MemorySegment params = a.allocate(64, 8); // CUctxCreateParams, zeroed: no affinity, no CIG
                rig.cuda.check("cuCtxCreate_v4", CudaRaw.cuCtxCreate_v4(rig.cuda, pctx, params, 0, rig.device));
                foreignCtx = pctx.get(ADDRESS, 0).address(); // now current
                foreignStream = rig.cuda.streamCreate(CudaRaw.CU_STREAM_NON_BLOCKING);
                rig.cuda.popCurrent();
            }
            assertEquals(rig.primary, rig.cuda.currentContext());
            try {
                ReactorException e = assertThrows(ReactorException.class,
                        () -> line.enqueueStore(CuStream.ofRaw(foreignStream), Slot.of(0), 1));
                assertEquals(ErrorCode.ForeignStream, e.code());
                assertTrue(e.getMessage().contains(Long.toHexString(foreignStream)), e.getMessage());
                assertFalse(line.page().streams().contains(foreignStream), "a refused stream is not tracked");
            } finally {
                rig.cuda.streamDestroy(foreignStream);
                rig.cuda.check("cuCtxDestroy_v2", CudaRaw.cuCtxDestroy_v2(rig.cuda, MemorySegment.ofAddress(foreignCtx)));
                rig.cuda.setCurrent(rig.primary);
            }
            if (rig.standinOnly()) { // and a stream of another device's primary context
                long other = rig.cuda.primaryContextRetain(1);
                rig.cuda.setCurrent(other);
                long s1 = rig.cuda.streamCreate(0);
                rig.cuda.setCurrent(rig.primary);
                try {
                    assertEquals(ErrorCode.ForeignStream, assertThrows(ReactorException.class,
                            () -> line.enqueueStore(CuStream.ofRaw(s1), Slot.of(0), 1)).code());
                } finally {
                    rig.cuda.streamDestroy(s1);
                    rig.cuda.primaryContextRelease(1);
                }
            }
            line.close();
            assertTrue(line.isFreed());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void theNullStreamWorksFromAThreadWithoutAContext(String kind) throws Exception {
        try (CudaRig rig = CudaRig.open(kind)) {
            var line = MappedLine.create(rig.cuda);
            CudaPort port = line.port(CuStream.NULL, Slot.of(2), 1);
            port.arm(); // on this thread, whose current context is the line's: accepted
            List<Object> result = new ArrayList<>();
            Thread t = Thread.ofPlatform().start(() -> { // no current context on this thread
                try {
                    result.add(await(port, FLAG));
                } catch (Throwable e) {
                    result.add(e);
                }
            });
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(t.isAlive());
            assertInstanceOf(Outcome.class, result.getFirst(), String.valueOf(result));
            assertEquals(1, line.line().word(Slot.of(2)));
            if (rig.standinOnly()) {
                List<Throwable> refused = new ArrayList<>();
                Thread u = Thread.ofPlatform().start(() -> {
                    try {
                        line.port(CuStream.NULL, Slot.of(2), 2).arm();
                    } catch (Throwable e) {
                        refused.add(e);
                    }
                });
                u.join(TimeUnit.SECONDS.toMillis(60));
                ReactorException e = assertInstanceOf(ReactorException.class, refused.getFirst());
                assertEquals(ErrorCode.Backend, e.code());
                assertTrue(e.getMessage().contains("CUDA_ERROR_INVALID_CONTEXT"), e.getMessage());
            }
            line.close();
            assertTrue(line.isFreed());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void aRetiredStreamIsNotSettledAgain(String kind) throws Exception {
        try (CudaRig rig = CudaRig.open(kind); var line = MappedLine.create(rig.cuda)) {
            CuStream s = rig.stream();
            HostFns.Gate gate = rig.gate(s);
            line.enqueueStore(s, Slot.of(0), 1);
            assertFalse(line.retire(s), "still running: stays tracked");
            gate.open();
            rig.cuda.check("cuStreamSynchronize", CudaRaw.cuStreamSynchronize(rig.cuda, s.segment()));
            assertTrue(line.retire(s));
            assertTrue(line.page().streams().isEmpty());
            VarHandle.fullFence();
            assertEquals(1, line.line().word(Slot.of(0)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void blockIsTheDriversSynchronize(String kind) throws Exception {
        try (CudaRig rig = CudaRig.open(kind); var line = MappedLine.create(rig.cuda)) {
            CuStream s = rig.stream();
            HostFns.Gate gate = rig.gate(s);
            CudaPort port = line.port(s, Slot.of(4), 3);
            port.arm();
            Thread opener = Thread.ofPlatform().start(() -> {
                try {
                    gate.awaitEntered(60);
                    Thread.sleep(5);
                } catch (InterruptedException ignored) {
                    // open anyway
                }
                gate.open();
            });
            Outcome o = Wait.run(new WaitPlan.Block(), port, Clock.system(), Sleeper.system(), OptionalLong.empty());
            assertInstanceOf(Outcome.Blocked.class, o);
            assertTrue(port.query());
            assertEquals(3, line.line().word(Slot.of(4)), "the stream is done, so its store ran");
            opener.join();
        }
    }

    static Duration shortSettle() { return Duration.ofMillis(200); }

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void aSegmentTakenBeforeCloseCannotReadAfterTheFree(String kind) throws Exception {
        // With a global-scope host view, on the stand-in this read would go on after the free.
        try (CudaRig rig = CudaRig.open(kind)) {
            var line = MappedLine.create(rig.cuda);
            MemorySegment seg = line.line().segment();
            line.line().store(Slot.of(3), 42);
            assertEquals(42, seg.get(java.lang.foreign.ValueLayout.JAVA_LONG, 24));
            line.close();
            assertTrue(line.isFreed());
            if (rig.standinOnly()) assertEquals(1, rig.hooks.counter("host_free"));
            assertThrows(IllegalStateException.class, () -> seg.get(java.lang.foreign.ValueLayout.JAVA_LONG, 24));
            assertEquals(ErrorCode.LineClosed, assertThrows(ReactorException.class, () -> line.line().word(Slot.of(3))).code());
        }
    }

    @org.junit.jupiter.api.Test
    void aNativeCallHoldingTheLineDelaysTheFreeUntilItReturns() throws Exception {
        try (CudaRig rig = CudaRig.standin()) {
            var line = MappedLine.create(rig.cuda);
            MemorySegment seg = line.line().segment();
            java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
            Thread closer;
            try (dev.gpureactor.core.NativeHold hold = dev.gpureactor.core.NativeHold.start(seg)) {
                closer = Thread.ofPlatform().start(() -> {
                    try {
                        rig.cuda.setCurrent(rig.primary);
                        line.close();
                    } catch (Throwable t) {
                        failed.set(t);
                    }
                });
                closer.join(200); // hang guard only: the close must still wait while the call holds the page
                assertTrue(hold.holding());
                assertEquals(null, failed.get());
                assertEquals(0, rig.hooks.counter("host_free"), "never freed under a native call");
                assertFalse(line.isFreed());
            }
            closer.join();
            assertEquals(null, failed.get());
            assertTrue(line.isFreed());
            assertEquals(1, rig.hooks.counter("host_free"));
        }
    }

    @org.junit.jupiter.api.Test
    void aNativeCallOutlastingTheSettleTimeoutLeaksThePageWithACodedWarning() throws Exception {
        try (CudaRig rig = CudaRig.standin()) {
            List<Warning> sink = new ArrayList<>();
            var line = MappedLine.create(rig.cuda, LineOptions.defaults().withSettleTimeout(Duration.ofMillis(20)).withWarnings(sink::add));
            try (dev.gpureactor.core.NativeHold hold = dev.gpureactor.core.NativeHold.start(line.line().segment())) {
                line.close();
                assertTrue(hold.holding());
                assertTrue(line.isLeaked());
                assertEquals(0, rig.hooks.counter("host_free"));
                assertEquals(1, sink.size(), sink.toString());
                assertEquals(ErrorCode.LineLeaked, sink.getFirst().code());
                assertTrue(sink.getFirst().message().contains("native call"), sink.getFirst().message());
            }
        }
    }
}
