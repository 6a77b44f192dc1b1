import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import dev.gpureactor.backend.*;
import dev.gpureactor.backend.sim.*;
import dev.gpureactor.host.*;
import java.time.Duration;
import java.util.concurrent.*;
import java.lang.foreign.*;

/** Synchronous bad-input checks: plans, builder, slots, descriptors, lines, sim, watcher, options. */
public class ProbeA {
    static int bad = 0;
    static void check(String name, Callable<?> c) {
        try {
            Object r = c.call();
            System.out.println("RETURNED  " + name + " -> " + String.valueOf(r).replace("\n","\\n"));
        } catch (ReactorException e) {
            String m = e.getMessage();
            System.out.println("CODED     " + name + " -> " + e.code() + ": " + (m.length() > 300 ? m.substring(0,300)+"...(" + m.length() + ")" : m));
        } catch (Throwable t) {
            bad++;
            System.out.println("UNCODED!! " + name + " -> " + t.getClass().getName() + ": " + t.getMessage());
        }
    }
    static String rep(String s, int n) { return s.repeat(n); }
    public static void main(String[] a) throws Exception {
        String[] plans = {"", " ", "flag", "flag:", "block ", " block", "BLOCK", "poll+", "poll+predict:",
            "flag:park_us=100,backstop_us=1000", "flag:park_us=100, backstop_us=1000", "flag:park_us=100,backstop_us=1000,",
            "flag:backstop_us=1000,park_us=100", "flag:park_us=100,park_us=100", "flag:park_us=-1,backstop_us=1000",
            "flag:park_us=+1,backstop_us=1000", "flag:park_us=0,backstop_us=1000", "flag:park_us=10001,backstop_us=1000",
            "flag:park_us=9223372036854775807,backstop_us=1000", "flag:park_us=9223372036854775808,backstop_us=1000",
            "flag:park_us=99999999999999999999999999999999999999999999999999,backstop_us=1",
            "flag:park_us=100us,backstop_us=1000", "flag:park_us=1e2,backstop_us=1000", "flag:park_us=0x10,backstop_us=1000",
            "flag:park_us=１００,backstop_us=1000", "flag:park_us=١٠٠,backstop_us=1000",
            "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8",
            "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=50001,max_sleep_us=50000,window=8",
            "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=0",
            "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=17",
            "flag:park_us=100,backstop_us=1000+predict:margin_us=60000001,min_sleep_us=20,max_sleep_us=50000,window=8",
            "flag:park_us=100,backstop_us=1000+predict:",
            "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8",
            "block+predict:margin_us=1,min_sleep_us=1,max_sleep_us=1,window=1",
            "poll\0", "poll\n", "poll\uD800", "\uD83D\uDE00poll", "flag:park_us=100\u200B,backstop_us=1000",
            rep("x", 1_000_000), "flag:park_us=" + rep("9", 100000) + ",backstop_us=1",
            "poll+predict:margin_us=0,min_sleep_us=0,max_sleep_us=0,window=1",
        };
        for (String p : plans) check("parse(" + (p.length() > 60 ? p.substring(0,60)+"…" : p) + ")", () -> WaitPlan.parse(p).label());
        check("parse(null)", () -> WaitPlan.parse(null));
        check("FlagWait(Long.MIN)", () -> new WaitPlan.FlagWait(Long.MIN_VALUE, 1000, java.util.Optional.empty()));
        check("FlagWait(null predict)", () -> new WaitPlan.FlagWait(100_000, 1_000_000, null));
        check("QueryPoll(null)", () -> new WaitPlan.QueryPoll(null));
        check("DeadlinePlan(-1..)", () -> new DeadlinePlan(-1, 0, 0, 1));
        check("DeadlinePlan(window MIN)", () -> new DeadlinePlan(0, 0, 0, Integer.MIN_VALUE));
        check("ExecutorKind.parse(\"\")", () -> ExecutorKind.parse(""));
        check("ExecutorKind.parse(null)", () -> ExecutorKind.parse(null));
        check("ExecutorKind.parse(GPU-REACTOR)", () -> ExecutorKind.parse("GPU-REACTOR"));

        // Builder
        check("name(null)", () -> GpuReactor.builder().name(null));
        check("name(\"\")", () -> GpuReactor.builder().name(""));
        check("name(\"  \")", () -> GpuReactor.builder().name("  "));
        check("name(\\n)", () -> GpuReactor.builder().name("\n"));
        check("name(\\u200B zero width)", () -> GpuReactor.builder().name("\u200B"));
        check("name(\\0)", () -> GpuReactor.builder().name("\0"));
        for (int n : new int[]{0, -1, 4097, Integer.MAX_VALUE, Integer.MIN_VALUE}) check("carriers(" + n + ")", () -> GpuReactor.builder().carriers(n));
        for (int n : new int[]{0, -1, Integer.MIN_VALUE}) check("linesPerParker(" + n + ")", () -> GpuReactor.builder().linesPerParker(n));
        Duration[] ds = {null, Duration.ofNanos(-1), Duration.ZERO, Duration.ofNanos(1), Duration.ofNanos(999), Duration.ofMillis(11),
            Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MIN_VALUE), Durations.MAX, Durations.MAX.plusNanos(1)};
        for (Duration d : ds) check("parkSpin(" + d + ")", () -> GpuReactor.builder().parkSpin(d));
        for (Duration d : ds) check("parkSlice(" + d + ")", () -> GpuReactor.builder().parkSlice(d));
        check("plan((String)null)", () -> GpuReactor.builder().plan((String) null));
        check("plan((WaitPlan)null)", () -> GpuReactor.builder().plan((WaitPlan) null));
        check("plan(\"bogus\")", () -> GpuReactor.builder().plan("bogus"));
        check("kind(null)", () -> GpuReactor.builder().kind(null));
        check("scheduler(null)", () -> GpuReactor.builder().scheduler(null));
        check("strictness(null)", () -> GpuReactor.builder().strictness(null));
        check("caps(null)", () -> GpuReactor.builder().caps(null));
        check("warnings(null)", () -> GpuReactor.builder().warnings(null));
        check("deadlineSleeper(null)", () -> GpuReactor.builder().deadlineSleeper(null));
        // Builds with odd but valid-ish settings
        check("build parkSpin=MAX", () -> { try (GpuReactor r = GpuReactor.builder().parkSpin(Durations.MAX).build()) { return r.name(); } });
        check("build parkSlice=10ms (>park_us)", () -> { try (GpuReactor r = GpuReactor.builder().parkSlice(Duration.ofMillis(10)).build()) { return r.warnings(); } });
        check("build linesPerParker=MAX", () -> { try (GpuReactor r = GpuReactor.builder().linesPerParker(Integer.MAX_VALUE).build()) { return r.linesPerParker(); } });
        check("build name 100k chars", () -> { try (GpuReactor r = GpuReactor.builder().name("n".repeat(100_000)).build()) { return r.jmxName(); } });
        check("build name with ,=:*?\" chars", () -> { try (GpuReactor r = GpuReactor.builder().name("a,b=c:d*e?\"f\n").build()) { return r.jmxName() + " warns=" + r.warnings(); } });
        check("build twice same name", () -> { try (GpuReactor r = GpuReactor.builder().name("dup").build(); GpuReactor r2 = GpuReactor.builder().name("dup").build()) { return r2.warnings(); } });
        check("build STRICT io-uring", () -> { try (GpuReactor r = GpuReactor.builder().kind(ExecutorKind.parse("io-uring")).strictness(Strictness.STRICT).build()) { return r.kind(); } });
        check("builder reuse after build", () -> { var b = GpuReactor.builder(); try (GpuReactor r = b.build(); GpuReactor r2 = b.build()) { return r.name() + "/" + r2.name(); } });

        // Slots, descriptors
        for (int i : new int[]{-1, 8, Integer.MIN_VALUE, Integer.MAX_VALUE}) { check("Slot.of(" + i + ")", () -> Slot.of(i)); check("new Slot(" + i + ")", () -> new Slot(i)); }
        check("MemoryDescriptor(null line)", () -> new MemoryDescriptor(null, Slot.of(0), 1));
        CompletionLine line = CompletionLine.allocate();
        check("MemoryDescriptor(null slot)", () -> new MemoryDescriptor(line, null, 1));
        check("desc target MIN isComplete (word 0)", () -> new MemoryDescriptor(line, Slot.of(0), Long.MIN_VALUE).isComplete());
        check("desc target MAX isComplete (word 0)", () -> new MemoryDescriptor(line, Slot.of(0), Long.MAX_VALUE).isComplete());
        check("desc toString MIN", () -> new MemoryDescriptor(line, Slot.of(0), Long.MIN_VALUE).toString());

        // Lines
        check("allocate(null, sink)", () -> CompletionLine.allocate(null, w -> {}));
        check("allocate(-1ns, sink)", () -> CompletionLine.allocate(Duration.ofNanos(-1), w -> {}));
        check("allocate(huge, sink)", () -> CompletionLine.allocate(Duration.ofSeconds(Long.MAX_VALUE), w -> {}));
        check("allocate(1s, null)", () -> CompletionLine.allocate(Duration.ofSeconds(1), null));
        check("wrap(null)", () -> CompletionLine.wrap(null, "x", () -> {}));
        check("wrap(heap)", () -> CompletionLine.wrap(MemorySegment.ofArray(new long[8]), "x", () -> {}));
        check("wrap(NULL seg)", () -> CompletionLine.wrap(MemorySegment.NULL, "x", () -> {}));
        Arena ar = Arena.ofShared();
        check("wrap(32 bytes)", () -> CompletionLine.wrap(ar.allocate(32, 64), "x", () -> {}));
        check("wrap(misaligned)", () -> CompletionLine.wrap(ar.allocate(128, 64).asSlice(8, 64), "x", () -> {}));
        check("wrap(name null)", () -> CompletionLine.wrap(ar.allocate(64, 64), null, () -> {}));
        check("wrap(release null)", () -> CompletionLine.wrap(ar.allocate(64, 64), "x", null));
        check("wrap(readonly seg) then store", () -> { var l = CompletionLine.wrap(ar.allocate(64, 64).asReadOnly(), "ro", () -> {}); l.store(Slot.of(0), 1); return l; });
        check("wrap(release throws) then close", () -> { var l = CompletionLine.wrap(ar.allocate(64, 64), "rt", () -> { throw new IllegalStateException("release boom"); }); l.close(); return "closed=" + l.isClosed(); });
        check("wrap(onClose listener throws) then close", () -> { var l = CompletionLine.allocate(); l.onClose(() -> { throw new IllegalStateException("listener boom"); }); l.close(); return "closed=" + l.isClosed(); });
        check("onClose(null)", () -> { line.onClose((Runnable) null); return null; });
        CompletionLine closed = CompletionLine.allocate(); closed.close(); closed.close();
        check("closed.word", () -> closed.word(Slot.of(0)));
        check("closed.wordVolatile", () -> closed.wordVolatile(Slot.of(0)));
        check("closed.store", () -> { closed.store(Slot.of(0), 1); return null; });
        check("closed.snapshot", () -> closed.snapshot());
        check("closed.segment", () -> closed.segment());
        check("closed.onClose", () -> { closed.onClose(() -> System.out.println("   (listener on closed line ran)")); return null; });
        check("closed desc.isComplete", () -> new MemoryDescriptor(closed, Slot.of(0), 1).isComplete());
        check("line.word(null)", () -> line.word(null));
        check("line.store(null,1)", () -> { line.store(null, 1); return null; });

        // Sim
        SimDevice sdev = SimDevice.open();
        SimStream st = sdev.stream();
        check("compute(null)", () -> st.compute(null));
        check("compute(-1ns)", () -> st.compute(Duration.ofNanos(-1)));
        check("compute(MAX+1)", () -> st.compute(Duration.ofSeconds(Long.MAX_VALUE)));
        check("compute(1ms, null)", () -> st.compute(Duration.ofMillis(1), null));
        check("hold(null)", () -> st.hold(null));
        check("fail(null)", () -> st.fail(null));
        check("signalThenFail(null)", () -> st.signalThenFail(null));
        check("signalIntoFailure(null)", () -> st.signalIntoFailure(null));
        check("stream(closed line)", () -> sdev.stream(closed, Slot.of(0)));
        check("stream(null, slot)", () -> sdev.stream(null, Slot.of(0)));
        check("stream(line, null)", () -> sdev.stream(line, null));
        st.close();
        check("closed stream signal", () -> st.signal());
        check("closed stream compute", () -> st.compute(Duration.ZERO));
        sdev.close();
        check("closed dev stream()", () -> sdev.stream());
        check("closed dev stream(line,slot)", () -> sdev.stream(line, Slot.of(1)));

        // Watcher
        Duration[] wd = {null, Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(Long.MAX_VALUE)};
        for (Duration d : wd) check("Watcher(interval=" + d + ")", () -> { try (Watcher w = new Watcher(d, Duration.ofMillis(1), x -> {})) { return "ok"; } });
        check("Watcher(backstop < interval)", () -> { try (Watcher w = new Watcher(Duration.ofMillis(2), Duration.ofMillis(1), x -> {})) { return "ok"; } });
        check("Watcher(null sink)", () -> { try (Watcher w = new Watcher(Duration.ofMillis(1), Duration.ofMillis(1), null)) { return "ok"; } });
        check("Watcher.watch(null,null)", () -> { try (Watcher w = Watcher.start()) { return w.watch(null, null); } });

        // LineOptions
        check("LineOptions(null settle)", () -> LineOptions.defaults().withSettleTimeout(null));
        check("LineOptions(-1 settle)", () -> LineOptions.defaults().withSettleTimeout(Duration.ofNanos(-1)));
        check("LineOptions(huge settle)", () -> LineOptions.defaults().withSettleTimeout(Duration.ofSeconds(Long.MAX_VALUE)));
        check("LineOptions(null park)", () -> LineOptions.defaults().withPark(null));
        check("LineOptions(null warn)", () -> LineOptions.defaults().withWarnings(null));

        // ErrorCode / ReactorException
        check("ErrorCode.ofNumber(0)", () -> ErrorCode.ofNumber(0));
        check("ErrorCode.ofNumber(-1)", () -> ErrorCode.ofNumber(-1));
        check("ErrorCode.ofNumber(9999)", () -> ErrorCode.ofNumber(9999));
        check("new ReactorException(null)", () -> new ReactorException(null));
        check("ReactorException too few args msg", () -> new ReactorException(ErrorCode.Backend, "x").getMessage());
        check("ReactorException too many args msg", () -> new ReactorException(ErrorCode.SlotOutOfRange, 1, 2, 3).getMessage());
        check("ReactorException arg toString throws", () -> new ReactorException(ErrorCode.SlotOutOfRange, new Object() { public String toString() { throw new IllegalStateException("toString boom"); } }).getMessage());
        check("ReactorException null args array", () -> new ReactorException(ErrorCode.SlotOutOfRange, (Object[]) null).getMessage());
        check("ErrorCode.render(null)", () -> ErrorCode.SlotOutOfRange.render(null));

        // Backends with no driver
        check("CudaBackend.probe()", () -> dev.gpureactor.backend.cuda.CudaBackend.probe());
        check("CudaBackend.probe(null)", () -> dev.gpureactor.backend.cuda.CudaBackend.probe(null));
        check("CudaBackend.probe(\"\")", () -> dev.gpureactor.backend.cuda.CudaBackend.probe(""));
        check("CudaBackend.probe(/etc/passwd)", () -> dev.gpureactor.backend.cuda.CudaBackend.probe("/etc/passwd"));
        check("HipBackend.probe()", () -> dev.gpureactor.backend.hip.HipBackend.probe());
        check("HipBackend.probe(nosuch)", () -> dev.gpureactor.backend.hip.HipBackend.probe("/nonexistent/libx.so"));
        check("MetalBackend.probe()", () -> dev.gpureactor.backend.metal.MetalBackend.probe());
        check("CudaDriver.load()", () -> dev.gpureactor.backend.cuda.CudaDriver.load());
        check("CudaDriver.load(null)", () -> dev.gpureactor.backend.cuda.CudaDriver.load(null));
        check("CudaDriver.load(\"\")", () -> dev.gpureactor.backend.cuda.CudaDriver.load(""));
        check("CudaDriver.load(libc)", () -> dev.gpureactor.backend.cuda.CudaDriver.load("libc.so.6"));
        check("CudaDriver.load(/etc/passwd)", () -> dev.gpureactor.backend.cuda.CudaDriver.load("/etc/passwd"));
        check("CudaDriver.load(/tmp)", () -> dev.gpureactor.backend.cuda.CudaDriver.load("/tmp"));
        check("HipRuntime.load()", () -> dev.gpureactor.backend.hip.HipRuntime.load());
        check("HipRuntime.load(libc)", () -> dev.gpureactor.backend.hip.HipRuntime.load("libc.so.6"));
        check("MetalRuntime.load()", () -> dev.gpureactor.backend.metal.MetalRuntime.load());
        check("MetalRuntime.available()", () -> dev.gpureactor.backend.metal.MetalRuntime.available());
        check("SharedEvent.create()", () -> dev.gpureactor.backend.metal.SharedEvent.create());
        check("MappedLine.create(null)", () -> MappedLine.create(null));
        check("CuStream.ofRaw(-1)", () -> dev.gpureactor.backend.cuda.CuStream.ofRaw(-1));
        check("CuStream.of(null)", () -> dev.gpureactor.backend.cuda.CuStream.of(null));
        check("Ring.open(0)", () -> dev.gpureactor.host.uring.Ring.open(0));
        check("Ring.open(-1)", () -> dev.gpureactor.host.uring.Ring.open(-1));
        check("Ring.open(MAX)", () -> dev.gpureactor.host.uring.Ring.open(Integer.MAX_VALUE));
        check("UringSleeper.open(null)", () -> dev.gpureactor.host.uring.UringSleeper.open(null));
        check("UringProbe.reason(-5)", () -> dev.gpureactor.host.uring.UringProbe.reason(-5));
        check("PointTable.forget(null)", () -> { new PointTable<Object>().forget(null); return null; });
        check("PointTable.estimate(null)", () -> new PointTable<Object>().estimate(null));
        check("PointTable.sleepNanos(k,null)", () -> new PointTable<Object>().sleepNanos("k", null));
        System.out.println("UNCODED count: " + bad);
    }
}
