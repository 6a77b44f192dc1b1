package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static dev.gpureactor.backend.PortWaits.FLAG;
import static dev.gpureactor.backend.PortWaits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults injected into the stand-in driver (these need its hooks, so they run against it only):
 * a failing kernel, a driver without the _v2 entry point, stream memory ops reading 0, an
 * allocation failure, a stream that never settles, a missing library, no current context.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SuppressWarnings("restricted")
class CudaFaultTest {
    @Test
    void aFailingKernelFailsTheWaitWithTheDriversErrorName() throws Exception {
        try (CudaRig rig = CudaRig.standin()) {
            List<Warning> sink = new CopyOnWriteArrayList<>();
            var line = MappedLine.create(rig.cuda, LineOptions.defaults().withWarnings(sink::add).withSettleTimeout(Duration.ofSeconds(5)));
            CuStream s = rig.stream();
            rig.hooks.launchFail(s.handle(), 2_000);
            CudaPort port = line.port(s, Slot.of(0), 1);
            port.arm(); // queued behind the kernel, whether or not it has failed yet

            ReactorException e = assertThrows(ReactorException.class, () -> await(port, FLAG));
            assertEquals(ErrorCode.Backend, e.code());
            assertTrue(e.getMessage().contains("CUDA_ERROR_LAUNCH_FAILED"), e.getMessage());
            assertTrue(e.getMessage().contains("unspecified launch failure"), e.getMessage());
            assertEquals(List.of("cuda", "cuStreamQuery", "719", "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"), e.args());
            assertTrue(port.isArmed(), "the store was queued behind the failing kernel");
            assertEquals(0, line.line().word(Slot.of(0)), "work behind a failed kernel never runs");

            ReactorException blocked = assertThrows(ReactorException.class, port::block);
            assertTrue(blocked.getMessage().contains("cuStreamSynchronize"), blocked.getMessage());
            assertTrue(blocked.getMessage().contains("CUDA_ERROR_LAUNCH_FAILED"), blocked.getMessage());
            assertEquals(ErrorCode.Backend, assertThrows(ReactorException.class, () -> await(port, new WaitPlan.Block())).code());

            line.close();
            assertTrue(line.isLeaked(), "a failed stream cannot settle: the page is leaked, not freed");
            assertEquals(0, rig.hooks.counter("host_free"));
            assertEquals(1, line.warnings().size());
            assertEquals(ErrorCode.LineLeaked, line.warnings().getFirst().code());
            assertTrue(line.warnings().getFirst().message().contains("CUDA_ERROR_LAUNCH_FAILED"), line.warnings().getFirst().message());
            assertEquals(line.warnings(), sink);
        }
    }

    @Test
    void aDriverWithoutTheV2EntryPointCannotMakeLinesButStillAnswersQueries() throws Exception {
        String path = Standin.library(Standin.CUDA_NO_V2);
        CudaDriver nov2 = CudaDriver.load(path);
        StandinHooks hooks = new StandinHooks(path);
        hooks.reset();
        nov2.ensureInitialized();
        long ctx = nov2.primaryContextRetain(0);
        nov2.setCurrent(ctx);
        long refs = hooks.primaryRefs(0);
        try {
            ReactorException e = assertThrows(ReactorException.class, () -> MappedLine.create(nov2));
            assertEquals(ErrorCode.NativeUnavailable, e.code());
            assertTrue(e.getMessage().contains("cuStreamWriteValue64_v2"), e.getMessage());
            assertTrue(e.getMessage().contains(path), e.getMessage());
            assertEquals(0, hooks.counter("host_alloc"), "it fails before allocating anything");
            assertEquals(refs, hooks.primaryRefs(0), "and before retaining anything");
            assertEquals(0, hooks.counter("write_value_v1"), "and never falls back to the v1 entry point");

            long stream = nov2.streamCreate(0);
            try {
                hooks.launchSleep(stream, 5_000);
                CudaPort port = CudaPort.queryOnly(nov2, CuStream.ofRaw(stream));
                assertInstanceOf(WaitPlan.QueryPoll.class, port.recommendedPlan());
                assertFalse(port.storesIntoLine());
                Outcome o = await(port, port.recommendedPlan());
                assertInstanceOf(Outcome.class, o);
                assertTrue(port.query());
            } finally {
                CudaRaw.cuStreamSynchronize(nov2, MemorySegment.ofAddress(stream));
                nov2.streamDestroy(stream);
            }
        } finally {
            nov2.primaryContextRelease(0);
        }
    }

    @Test
    void streamMemOpsReadingZeroWarnsAndTheLineRunsTheQueryPlan() throws Exception {
        try (CudaRig rig = CudaRig.standin()) {
            rig.hooks.set("attr_122", 0);
            List<Warning> sink = new ArrayList<>();
            var line = MappedLine.create(rig.cuda, LineOptions.defaults().withWarnings(sink::add));
            assertFalse(line.stores().usable());
            assertEquals(CudaRaw.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, StreamMemOps.read(rig.cuda, line.device()).answeredBy());
            assertEquals(1, line.warnings().size());
            Warning w = line.warnings().getFirst();
            assertEquals(ErrorCode.NoStreamMemOps, w.code());
            assertEquals("cuda", w.args().get(0));
            assertEquals("0", w.args().get(1));
            assertTrue(w.message().contains("(122) = 0"), w.message());
            assertEquals(List.of(w), sink);

            CuStream s = rig.stream();
            rig.hooks.launchSleep(s.handle(), 20_000);
            CudaPort port = line.port(s, Slot.of(0), 1);
            assertFalse(port.storesIntoLine());
            assertInstanceOf(WaitPlan.QueryPoll.class, port.recommendedPlan());
            assertInstanceOf(Outcome.class, await(port, WaitPlan.recommended()), "even a flag plan completes, by queries");
            assertTrue(port.query());
            assertEquals(0, rig.hooks.counter("write_value"), "no store was attempted");
            ReactorException e = assertThrows(ReactorException.class, () -> line.enqueueStore(s, Slot.of(0), 1));
            assertEquals(ErrorCode.NoStreamMemOps, e.code());

            // Through a reactor with its default (flag) plan: the query completes it, and since this port
            // writes no word, its word never arriving is no WordNeverWritten (it was warned at every wait).
            List<Warning> raised = new CopyOnWriteArrayList<>();
            try (dev.gpureactor.loom.GpuReactor r = dev.gpureactor.loom.GpuReactor.builder().carriers(2).jmx(false)
                    .warnings(raised::add).build()) {
                for (boolean virtual : new boolean[] {true, false}) { // the parker's backstop; a platform joiner's own run
                    rig.hooks.launchSleep(s.handle(), 20_000);
                    CudaPort q = line.port(s, Slot.of(1), 1);
                    var f = r.await(q.descriptor().orElseThrow(), q, () -> "done");
                    var got = new java.util.concurrent.atomic.AtomicReference<Object>();
                    Runnable join = () -> {
                        try {
                            got.set(f.join(Duration.ofSeconds(30)));
                        } catch (Throwable x) {
                            got.set(x);
                        }
                    };
                    if (virtual) Thread.ofVirtual().start(join).join(); else join.run();
                    assertEquals("done", got.get());
                }
            }
            assertTrue(raised.stream().noneMatch(x -> x.code() == ErrorCode.WordNeverWritten), raised.toString());
            line.close();
            assertTrue(line.isFreed());
        }
    }

    @Test
    void bothAttributeNumbersAreReadAndTheAnsweringOneIsReported() {
        try (CudaRig rig = CudaRig.standin()) {
            // current driver, GB10-like: 122 says yes, the deprecated 92/93 say no -> usable, by 122
            StreamMemOps m = StreamMemOps.read(rig.cuda, 0);
            assertTrue(m.usable(), m.detail());
            assertEquals(122, m.answeredBy());
            assertTrue(m.detail().contains("(92) = 0") && m.detail().contains("(93) = 0"), m.detail());
            // an old driver that does not know 122: the legacy pair decides
            rig.hooks.set("attr_122", -1);
            rig.hooks.set("attr_92", 1);
            rig.hooks.set("attr_93", 1);
            m = StreamMemOps.read(rig.cuda, 0);
            assertTrue(m.usable(), m.detail());
            assertEquals(93, m.answeredBy());
            assertTrue(m.detail().contains("(122) = unknown"), m.detail());
            rig.hooks.set("attr_92", 0);
            m = StreamMemOps.read(rig.cuda, 0);
            assertFalse(m.usable(), m.detail());
            assertEquals(92, m.answeredBy());
        }
    }

    @Test
    void anAllocationFailureIsABackendErrorAndGivesTheContextBack() {
        try (CudaRig rig = CudaRig.standin()) {
            long refs = rig.hooks.primaryRefs(0);
            rig.hooks.set("fail_alloc", 1);
            ReactorException e = assertThrows(ReactorException.class, () -> MappedLine.create(rig.cuda));
            assertEquals(ErrorCode.Backend, e.code());
            assertTrue(e.getMessage().contains("CUDA_ERROR_OUT_OF_MEMORY"), e.getMessage());
            assertTrue(e.getMessage().contains("cuMemHostAlloc"), e.getMessage());
            assertEquals(refs, rig.hooks.primaryRefs(0), "the retained primary context was released");
            assertEquals(0, rig.hooks.counter("host_alloc"));
            try (var again = MappedLine.create(rig.cuda)) {
                assertEquals(refs + 1, rig.hooks.primaryRefs(0));
                assertFalse(again.isFreed());
            }
            assertEquals(refs, rig.hooks.primaryRefs(0));
        }
    }

    @Test
    void aStreamThatNeverSettlesLeaksThePageInsteadOfFreeingIt() throws Exception {
        try (CudaRig rig = CudaRig.standin()) {
            List<Warning> sink = new CopyOnWriteArrayList<>();
            var line = MappedLine.create(rig.cuda,
                    LineOptions.defaults().withSettleTimeout(Duration.ofMillis(200)).withWarnings(sink::add));
            CuStream s = rig.stream();
            rig.hooks.launchHang(s.handle());
            line.enqueueStore(s, Slot.of(6), 9);
            long refs = rig.hooks.primaryRefs(0);
            long host = line.page().hostAddress();

            line.close();
            assertTrue(line.isLeaked());
            assertFalse(line.isFreed());
            assertEquals(1, sink.size());
            assertEquals(ErrorCode.LineLeaked, sink.getFirst().code());
            assertTrue(sink.getFirst().message().contains("did not settle within PT0.2S"), sink.getFirst().message());
            assertEquals(0, rig.hooks.counter("host_free"), "never freed under a pending store");
            assertEquals(refs, rig.hooks.primaryRefs(0), "the context reference is leaked with the page");

            rig.hooks.releaseHangs();
            rig.cuda.check("cuStreamSynchronize", CudaRaw.cuStreamSynchronize(rig.cuda, s.segment()));
            MemorySegment page = MemorySegment.ofAddress(host).reinterpret(64);
            VarHandle word = ValueLayout.JAVA_LONG.varHandle();
            assertEquals(9L, (long) word.getAcquire(page, 48L), "the late store landed in memory that is still allocated");
            assertEquals(0, rig.hooks.counter("free_under_pending"));
            line.close(); // nothing more happens
            assertEquals(1, sink.size());
        }
    }

    @Test
    void thePerThreadStreamIsRefusedForStores() {
        try (CudaRig rig = CudaRig.standin(); var line = MappedLine.create(rig.cuda)) {
            ReactorException e = assertThrows(ReactorException.class,
                    () -> line.enqueueStore(CuStream.ofRaw(CudaRaw.CU_STREAM_PER_THREAD), Slot.of(0), 1));
            assertEquals(ErrorCode.InvalidArgument, e.code());
            assertTrue(e.getMessage().contains("CU_STREAM_PER_THREAD"), e.getMessage());
            line.enqueueStore(CuStream.ofRaw(CudaRaw.CU_STREAM_LEGACY), Slot.of(0), 1); // the legacy NULL stream is fine
        }
    }

    @Test
    void aMissingLibraryIsACodedErrorNamingThePath() {
        String path = "/nonexistent/gar/libcuda.so.1";
        ReactorException e = assertThrows(ReactorException.class, () -> CudaDriver.load(path));
        assertEquals(ErrorCode.NativeUnavailable, e.code());
        assertEquals(path, e.args().getFirst());
        assertTrue(e.getMessage().contains(path) && e.getMessage().contains("no such file"), e.getMessage());

        ReactorException byName = assertThrows(ReactorException.class, () -> CudaDriver.load("libgar-no-such-driver.so.1"));
        assertEquals(ErrorCode.NativeUnavailable, byName.code());
        assertTrue(byName.getMessage().contains("libgar-no-such-driver.so.1"), byName.getMessage());

        String before = System.getProperty(CudaDriver.LIBRARY_PROPERTY);
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, path);
        try {
            ReactorException viaProperty = assertThrows(ReactorException.class, () -> MappedLine.create(CudaDriver.load()));
            assertEquals(ErrorCode.NativeUnavailable, viaProperty.code());
            assertTrue(viaProperty.getMessage().contains(path), viaProperty.getMessage());
        } finally {
            restore(before);
        }
    }

    @Test
    void thePropertyChoosesTheLibrary() {
        String before = System.getProperty(CudaDriver.LIBRARY_PROPERTY);
        String standin = Standin.library(Standin.CUDA);
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, standin);
        try {
            assertEquals(standin, CudaDriver.configuredLibrary());
            assertSame(CudaDriver.load(standin), CudaDriver.load());
        } finally {
            restore(before);
        }
        assertEquals(before == null ? CudaDriver.DEFAULT_LIBRARY : before, CudaDriver.configuredLibrary());
    }

    @Test
    void aThreadWithoutACurrentContextGetsTheDriversError() throws Exception {
        CudaDriver cuda = CudaDriver.load(Standin.library(Standin.CUDA));
        List<Throwable> got = new ArrayList<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                MappedLine.create(cuda).close();
            } catch (Throwable e) {
                got.add(e);
            }
        });
        t.join();
        ReactorException e = assertInstanceOf(ReactorException.class, got.getFirst());
        assertEquals(ErrorCode.Backend, e.code());
        assertTrue(e.getMessage().contains("cuCtxGetDevice") && e.getMessage().contains("CUDA_ERROR_INVALID_CONTEXT"), e.getMessage());
    }

    private static void restore(String before) {
        if (before == null) System.clearProperty(CudaDriver.LIBRARY_PROPERTY);
        else System.setProperty(CudaDriver.LIBRARY_PROPERTY, before);
    }
}
