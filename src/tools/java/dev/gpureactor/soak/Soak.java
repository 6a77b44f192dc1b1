package dev.gpureactor.soak;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.loom.RunStats;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The soak: many futures, across several lines and all eight slots of each, on three reactors
 * (gpu-reactor with and without the deadline estimate, and naive), each future with a fate decided
 * up front ({@link Fate}), a random way of waiting and random device work, and every outcome checked
 * against its fate.
 *
 * <p><b>Shape.</b> A round opens a fresh simulated device; one driver thread per slot runs that
 * slot's share of the round as <em>segments</em>: a fresh stream, a run of futures (each one
 * signal, awaited at once on a reactor drawn at random, joined by one or two virtual threads, now
 * and then a platform thread, or a completion callback), the injected cancels and interrupts in
 * stream order, then a wait until every joiner has seen its outcome. A segment ends with a terminal
 * fault half the time (failed stream, lost word, store into failure), and the next segment starts
 * on a new stream only once all waits of the last one settled, so no word of a new stream can reach
 * an old target. After each round: the device closes, the registration count must return to 0, the
 * oldest line is closed and replaced, and the heap is measured after a full GC. After the last
 * round, unless {@link SoakConfig#closeWaits()} is 0, {@link ClosePhase} closes a reactor of its own
 * under load; its result is one more invariant of the report.
 *
 * <p><b>What counts as what.</b> A future whose device finished but that stays unsettled for the
 * settle bound, or that settled while its joiner never woke, is a <em>lost wake</em>; a readback run
 * twice or an outcome delivered twice is a <em>duplicated wake</em>; a readback that finds the word
 * short of its target or the kernel's payload missing, or a WordNeverWritten warning for a word that
 * was written, or a stage callback run on a parker thread, is a <em>wrong wake</em>; a gated wait
 * that its cancel, timeout or interrupt does not end (for the caller whose limit or interrupt it
 * was) is <em>hung</em>. Every joiner must answer: a gated future's extra joiners (mixed ways) and
 * the first joiner's second join after its own timeout or interrupt are counted as observations,
 * and must all see the future's one outcome. Stuck waits are cancelled to recover, and counted, so one fault does not
 * stop the run.
 *
 * <p>Everything random comes from the seed; thread timing does not, so a seed reproduces the plans
 * and fates, not the interleavings.
 */
public final class Soak {
    private static final String FAIL_WHY = "soak: injected launch failure";
    private static final int MEAN_SEGMENT = 24;
    private static final double TERMINAL_SHARE = 0.5;
    private static final double CANCEL_SHARE = 0.03, TIMEOUT_SHARE = 0.03, INTERRUPT_SHARE = 0.03, READBACK_THROWS_SHARE = 0.02;
    private static final double PLATFORM_JOINER_SHARE = 0.03;
    private static final double SECOND_JOINER_SHARE = 0.1;
    private static final long SHORT_LIMIT_NANOS = 2_000_000;
    private static final Duration LONG_LIMIT = Duration.ofMinutes(10);
    private static final int SAMPLES = 20;
    /** Frames per thread in the snapshot at the first lost or hung wait. */
    private static final int STACK_FRAMES = 14;
    private static final Fate[] TERMINALS = {Fate.FAILED_STREAM, Fate.LOST_WORD, Fate.STORE_INTO_FAILURE, Fate.PORT_THROWS};
    /** How the extra joiners of a gated future wait: mixed, each with the long limit. */
    private static final Way[] EXTRA_WAYS = {Way.JOIN, Way.GET, Way.STAGE, Way.JOIN_TIMED, Way.GET_TIMED};

    /** The readback's injected failure: an observer must see this very exception as the failure. */
    static final class InjectedReadbackFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedReadbackFailure() { super("soak: injected readback failure"); }
    }

    /** The port's injected unchecked failure (the word never arrives; every query throws this). */
    static final class InjectedPortFailure extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        InjectedPortFailure() { super("soak: injected port failure"); }
    }

    /** A port whose query throws an unchecked exception; its park delegates (the word never arrives). */
    private record ThrowingPort(CompletionPort inner) implements CompletionPort {
        @Override public boolean query() { throw new InjectedPortFailure(); }
        @Override public void block() { throw new InjectedPortFailure(); }
        @Override public void arm() { inner.arm(); }
        @Override public boolean park(long boundNanos) throws InterruptedException { return inner.park(boundNanos); }
    }

    /** How a joiner waits. */
    enum Way {
        JOIN("join"), JOIN_TIMED("join(Duration)"), GET("get"), GET_TIMED("get(timeout)"), STAGE("stage"),
        ON_COMPLETE("onComplete");

        final String label;

        Way(String label) { this.label = label; }
    }

    private record Arm(String label, GpuReactor reactor, double weight) {}

    /** One future's draw: fate, way of waiting, reactor, payload token, joiner threads, limit, kernel time. */
    private record Plan(Fate fate, Way way, Arm arm, long token, int threads, boolean platform, long limitNanos, long workNanos) {}

    /**
     * What a joiner or callback saw: a value, a coded error, the injected readback failure itself,
     * or something it should never see. A caller's own timeout or interrupt ({@code get}'s
     * {@link TimeoutException} / {@link InterruptedException}) is seen as the code it stands for.
     */
    private record Observed(Long value, ErrorCode code, boolean readbackThrew, String unexpected) {
        static Observed value(Long v) { return new Observed(v, null, false, null); }

        static Observed of(Throwable t) {
            Throwable c = t;
            // get() wraps a failure in ExecutionException, and a cancellation in CancellationException
            // (Future's contract), each with the failure as its cause; join and a stage wrap in CompletionException.
            while ((c instanceof CompletionException || c instanceof ExecutionException || c instanceof CancellationException)
                    && c.getCause() != null) {
                c = c.getCause();
            }
            if (c instanceof ReactorException re) return new Observed(null, re.code(), false, null);
            if (c instanceof InjectedReadbackFailure) return new Observed(null, null, true, null);
            if (c instanceof TimeoutException) return new Observed(null, ErrorCode.Timeout, false, null);
            if (c instanceof InterruptedException) return new Observed(null, ErrorCode.Interrupted, false, null);
            return new Observed(null, null, false, c.toString());
        }

        String bucket() {
            if (unexpected != null) return "unexpected";
            if (readbackThrew) return "failed by its readback";
            if (code == null) return "completed";
            return switch (code) {
                case Cancelled -> "cancelled";
                case Timeout -> "caller timed out";
                case Interrupted -> "caller interrupted";
                default -> "failed " + code.name();
            };
        }

        @Override
        public String toString() {
            return unexpected != null ? "unexpected " + unexpected : readbackThrew ? "the readback's own exception"
                    : code != null ? code.tag() + " " + code.name() : "value " + value;
        }
    }

    /** One future under test: its fate, how it is waited on, and what was seen. */
    private static final class Tracked {
        final Fate fate;
        final Way way;
        final Arm arm;
        final long token;
        final int threads;
        final boolean platform;
        final long limitNanos;
        final CountDownLatch gate;
        final CountDownLatch segment;
        final AtomicInteger readbacks = new AtomicInteger(), observations = new AtomicInteger();
        final AtomicReference<Observed> first = new AtomicReference<>();
        /** What the first joiner saw of its own wait, ended by its limit or interrupt (TIMEOUT / INTERRUPT fates). */
        volatile Observed own;
        volatile String disagreement;
        volatile boolean wrongWake, recovered, callbackOnParker;
        /** The slot's word when the readback ran (for the report on a lost word). */
        volatile long wordAtReadback = -1;
        /** Written by the stream's kernel, read by the readback: the payload → word → wake chain under test. */
        long payload;
        SimStream.Signal signal;
        GpuFuture<Long> future;
        volatile Thread joiner;

        Tracked(Fate fate, Way way, Arm arm, long token, int threads, boolean platform, long limitNanos, CountDownLatch segment) {
            this.fate = fate;
            this.way = way;
            this.arm = arm;
            this.token = token;
            this.threads = threads;
            this.platform = platform;
            this.limitNanos = limitNanos;
            this.gate = fate.isGated() ? new CountDownLatch(1) : null;
            this.segment = segment;
        }

        /** Every joiner, the callback, and the first joiner's second join after its own wait ended. */
        int expectedObservations() { return threads + (way == Way.ON_COMPLETE ? 1 : 0) + (fate.ownCode() != null ? 1 : 0); }

        void kernel() { payload = token; }

        Long readback() {
            readbacks.incrementAndGet();
            wordAtReadback = signal.descriptor().line().word(signal.descriptor().slot());
            if (fate != Fate.LOST_WORD && !signal.descriptor().isComplete()) wrongWake = true;
            long p = payload;
            if (p != token) wrongWake = true;
            if (fate == Fate.READBACK_THROWS) throw new InjectedReadbackFailure();
            return p;
        }

        /** A stage callback ran here: it must not be a parker thread (it would stall its line). */
        void callbackRan() {
            if (Thread.currentThread().getName().startsWith("gar-parker")) callbackOnParker = true;
        }

        void recordOwn(Observed o) {
            observations.incrementAndGet();
            own = o;
            if (gate != null) gate.countDown(); // only now may the late word arrive
            segment.countDown();
        }

        void record(Observed o) {
            observations.incrementAndGet();
            if (!first.compareAndSet(null, o) && !first.get().equals(o)) {
                disagreement = "joiners disagree: " + first.get() + " and " + o;
            }
            if (gate != null) gate.countDown(); // only now may the late word arrive
            segment.countDown();
        }
    }

    private final SoakConfig config;
    private final Consumer<String> progress;
    private final List<Arm> arms = new ArrayList<>();
    /** WordNeverWritten warnings by descriptor; counted with merge, so a reader never sees a key before its count. */
    private final ConcurrentHashMap<String, Integer> lostWordWarnings = new ConcurrentHashMap<>();
    private final LongAdder parkerDiedWarnings = new LongAdder();
    private final LongAdder futures = new LongAdder(), observed = new LongAdder(), platformJoiners = new LongAdder();
    private final Map<Fate, LongAdder> byFate = new EnumMap<>(Fate.class);
    private final ConcurrentHashMap<String, LongAdder> outcomes = new ConcurrentHashMap<>(), ways = new ConcurrentHashMap<>();
    private final LongAdder lost = new LongAdder(), duplicated = new LongAdder(), wrong = new LongAdder(),
            mismatched = new LongAdder(), hung = new LongAdder(), lostWordsExpected = new LongAdder(), lostWordsSeen = new LongAdder();
    private final List<String> samples = new CopyOnWriteArrayList<>();
    /** Where the threads were at the first lost or hung wait (written once, by the recovery that wins {@link #snapshotTaken}). */
    private final List<String> stacks = new CopyOnWriteArrayList<>();
    /** One snapshot per run: several slot drivers may recover at once, and only the CAS's winner takes it. */
    private final AtomicBoolean snapshotTaken = new AtomicBoolean();
    private volatile String stopped = "";

    private Soak(SoakConfig config, Consumer<String> progress) {
        this.config = config;
        this.progress = progress;
        for (Fate f : Fate.values()) byFate.put(f, new LongAdder());
    }

    /** Runs a soak and returns its report; {@code progress} gets one line per round. */
    public static SoakReport run(SoakConfig config, Consumer<String> progress) {
        java.util.Objects.requireNonNull(config, "config");
        java.util.Objects.requireNonNull(progress, "progress");
        return new Soak(config, progress).run();
    }

    private SoakReport run() {
        Random planDraw = new Random(config.seed());
        List<String> reactorLabels = new ArrayList<>();
        SoakLines lines = new SoakLines(config.lines());
        List<Long> heap = new ArrayList<>();
        long registrationsLeft = 0;
        int roundsRun = 0;
        PinWatch pins = PinWatch.start();
        long t0 = System.nanoTime();
        try {
            addArm("gpu-reactor", ExecutorKind.GPU_REACTOR, config.plan().orElseGet(() -> randomFlag(planDraw, true)), 0.4, reactorLabels);
            addArm("gpu-reactor", ExecutorKind.GPU_REACTOR, config.plan().orElseGet(() -> randomFlag(planDraw, false)), 0.4, reactorLabels);
            addArm("naive", ExecutorKind.NAIVE, config.plan().orElseGet(() -> randomFlag(planDraw, planDraw.nextBoolean())), 0.2, reactorLabels);
            for (int round = 0; round < config.rounds() && stopped.isEmpty(); round++) {
                long roundStart = System.nanoTime();
                long share = config.futures() / config.rounds() + (round < config.futures() % config.rounds() ? 1 : 0);
                runRound(round, share, lines.lines());
                long left = awaitNoRegistrations();
                registrationsLeft = Math.max(registrationsLeft, left);
                lines.rotate();
                heap.add(heapAfterGc());
                if (round == 0) pins.warmedUp(); // the first round is the warm-up, for the heap and the pins alike
                roundsRun++;
                progress.accept(String.format(Locale.ROOT,
                        "round %d/%d: %d futures in %.1f s; so far %d observed, %d faults, lost %d, duplicated %d, wrong %d, mismatched %d, hung %d; registrations left %d; heap after GC %.1f MiB",
                        round + 1, config.rounds(), share, (System.nanoTime() - roundStart) / 1e9, observed.sum(), faults(),
                        lost.sum(), duplicated.sum(), wrong.sum(), mismatched.sum(), hung.sum(), left, heap.getLast() / 1048576.0));
            }
        } finally {
            for (Arm a : arms) a.reactor().close();
        }
        long elapsed = System.nanoTime() - t0;
        java.util.Optional<ClosePhase.Result> close = java.util.Optional.empty();
        if (config.closeWaits() > 0 && stopped.isEmpty()) {
            close = java.util.Optional.of(ClosePhase.run(config.closeWaits(), config.carriers(), config.seed()));
            progress.accept("close phase: " + close.get().detail());
        }
        PinWatch.Pins pinned = pins.stop();
        lines.closeAll();
        for (Map.Entry<String, Integer> e : lostWordWarnings.entrySet()) { // a warning no lost word asked for
            wrong.add(e.getValue());
            sample("WordNeverWritten for " + e.getKey() + ", which no lost-word future waited on");
        }
        long started = 0, died = 0, compensations = 0;
        for (Arm a : arms) {
            RunStats s = a.reactor().stats();
            started += s.parkersStarted();
            died += s.parkersDied();
            compensations += s.compensations();
        }
        Map<Fate, Long> injected = new EnumMap<>(Fate.class);
        byFate.forEach((f, n) -> injected.put(f, n.sum()));
        return new SoakReport(config, host(), reactorLabels, elapsed, roundsRun, stopped, futures.sum(), observed.sum(), injected,
                sums(outcomes), sums(ways), platformJoiners.sum(),
                new SoakReport.Wakes(lost.sum(), duplicated.sum(), wrong.sum(), mismatched.sum(), hung.sum(), samples, stacks),
                new SoakReport.LostWords(lostWordsExpected.sum(), lostWordsSeen.sum()), registrationsLeft,
                new SoakReport.Parkers(started, died, parkerDiedWarnings.sum()), pinned, heap, lines.account(), close, compensations);
    }

    private void addArm(String kind, ExecutorKind k, WaitPlan plan, double weight, List<String> labels) {
        List<String> buildWarnings = new ArrayList<>();
        GpuReactor r = GpuReactor.builder().kind(k).plan(plan).carriers(config.carriers()).warnings(w -> {
            switch (w.code()) {
                case WordNeverWritten -> lostWordWarnings.merge(w.args().getFirst(), 1, Integer::sum);
                case ParkerDied -> parkerDiedWarnings.increment();
                default -> buildWarnings.add(w.code().name());
            }
        }).build();
        arms.add(new Arm(kind, r, weight));
        labels.add(String.format(Locale.ROOT, "%s (%s, scheduler %s), plan %s, %.0f%% of futures%s", kind, r.kindResolution().label(),
                r.schedulerResolution().label(), plan.label(), weight * 100,
                buildWarnings.isEmpty() ? "" : ", warned at build: " + String.join(", ", buildWarnings)));
    }

    private static WaitPlan randomFlag(Random rnd, boolean predict) {
        long[] parks = {20, 50, 100, 200, 500}, backstops = {200, 500, 1000, 2000, 5000}, margins = {50, 100, 200};
        String text = "flag:park_us=" + parks[rnd.nextInt(parks.length)] + ",backstop_us=" + backstops[rnd.nextInt(backstops.length)];
        if (predict) text += "+predict:margin_us=" + margins[rnd.nextInt(margins.length)] + ",min_sleep_us=20,max_sleep_us=50000,window=8";
        return WaitPlan.parse(text);
    }

    // ---------------------------------------------------------------- a round

    private void runRound(int round, long share, List<CompletionLine> lines) {
        int slots = lines.size() * CompletionLine.WORDS;
        long perSlot = Math.max(1, share / slots);
        long meanWork = config.seconds() == 0 ? 0 : (long) (config.seconds() * 1e9 / config.rounds() / perSlot * 0.8);
        try (SimDevice device = SimDevice.open()) {
            List<Thread> drivers = new ArrayList<>();
            for (int k = 0; k < slots; k++) {
                CompletionLine line = lines.get(k / CompletionLine.WORDS);
                Slot slot = Slot.of(k % CompletionLine.WORDS);
                long quota = share / slots + (k < share % slots ? 1 : 0);
                Random rnd = new Random(config.seed() * 1_000_003L + round * 10_007L + k);
                drivers.add(Thread.ofPlatform().daemon(true).name("gar-soak-" + line.name() + "-" + slot.index())
                        .start(() -> driveSlot(device, line, slot, quota, rnd, meanWork)));
            }
            long bound = Math.max(TimeUnit.SECONDS.toMillis(120), TimeUnit.SECONDS.toMillis(config.seconds()) * 10 / config.rounds())
                    + 4 * config.settle().toMillis();
            long end = System.currentTimeMillis() + bound;
            for (Thread d : drivers) {
                try {
                    d.join(Math.max(1, end - System.currentTimeMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopped = "interrupted";
                    return;
                }
                if (d.isAlive()) {
                    stopped = d.getName() + " did not finish its round within " + bound + " ms";
                    sample(stopped);
                    return;
                }
            }
        }
    }

    private void driveSlot(SimDevice device, CompletionLine line, Slot slot, long quota, Random rnd, long meanWork) {
        try {
            long left = quota;
            String[] previous = {"none"}; // the slot's last future, for the report on a missing warning
            while (left > 0 && stopped.isEmpty()) {
                int len = (int) Math.min(left, 1 + rnd.nextInt(2 * MEAN_SEGMENT - 1));
                left -= len;
                runSegment(device, line, slot, len, rnd, meanWork, previous);
            }
        } catch (RuntimeException | Error e) {
            stopped = "driver of " + line.name() + "/" + slot.index() + " failed: " + e;
            sample(stopped);
        }
    }

    private void runSegment(SimDevice device, CompletionLine line, Slot slot, int len, Random rnd, long meanWork, String[] previous) {
        Fate terminal = rnd.nextDouble() < TERMINAL_SHARE ? TERMINALS[rnd.nextInt(TERMINALS.length)] : null;
        // Plans first, so the segment's latch knows how many outcomes to wait for.
        List<Plan> plans = new ArrayList<>(len);
        int expected = 0;
        for (int i = 0; i < len; i++) {
            Fate f = i == len - 1 && terminal != null ? terminal : nonTerminal(rnd);
            Way way = way(f, rnd);
            // Gated fates get up to two extra joiners of mixed ways: a cancel reaches them all, while
            // the first joiner's own limit or interrupt must leave them waiting for the payload.
            int threads = way == Way.ON_COMPLETE ? 0 : f.isGated() ? 1 + rnd.nextInt(3) : rnd.nextDouble() < SECOND_JOINER_SHARE ? 2 : 1;
            boolean platform = threads > 0 && rnd.nextDouble() < PLATFORM_JOINER_SHARE;
            long limit = f == Fate.TIMEOUT ? (long) (rnd.nextDouble() * SHORT_LIMIT_NANOS) : LONG_LIMIT.toNanos();
            plans.add(new Plan(f, way, arm(rnd), rnd.nextLong(), threads, platform, limit, work(rnd, meanWork)));
            expected += threads + (way == Way.ON_COMPLETE ? 1 : 0) + (f.ownCode() != null && threads > 0 ? 1 : 0);
        }
        CountDownLatch segment = new CountDownLatch(expected);
        List<Tracked> ts = new ArrayList<>(len);
        long workNanos = 0;
        SimStream stream = device.stream(line, slot);
        try {
            for (Plan p : plans) {
                Tracked t = new Tracked(p.fate(), p.way(), p.arm(), p.token(), p.threads(), p.platform(), p.limitNanos(), segment);
                workNanos += p.workNanos();
                Duration d = Duration.ofNanos(p.workNanos());
                t.signal = switch (t.fate) {
                    case COMPLETE, READBACK_THROWS -> stream.compute(d, t::kernel).signal();
                    case CANCEL, TIMEOUT, INTERRUPT -> stream.hold(t.gate).compute(d, t::kernel).signal();
                    case FAILED_STREAM -> stream.compute(d, t::kernel).fail(FAIL_WHY).signal();
                    case LOST_WORD -> stream.compute(d, t::kernel).signalLost();
                    case STORE_INTO_FAILURE -> stream.compute(d, t::kernel).signalIntoFailure(FAIL_WHY);
                    case PORT_THROWS -> stream.compute(d, t::kernel).signalLost();
                };
                CompletionPort port = t.fate == Fate.PORT_THROWS ? new ThrowingPort(t.signal.port()) : t.signal.port();
                t.future = t.arm.reactor().await(t.signal.descriptor(), port, t::readback);
                futures.increment();
                byFate.get(t.fate).increment();
                start(t);
                ts.add(t);
            }
            // The injected actions, in stream order: each gate opens once its joiner has seen the outcome.
            for (Tracked t : ts) {
                if (t.fate == Fate.CANCEL) {
                    pause(rnd);
                    t.future.cancel(rnd.nextBoolean());
                } else if (t.fate == Fate.INTERRUPT) {
                    pause(rnd);
                    t.joiner.interrupt();
                }
            }
            awaitSegment(stream, ts, segment, workNanos);
            for (Tracked t : ts) {
                if (!t.recovered) verify(t, previous[0]);
                previous[0] = t.fate.label() + "@" + t.signal.descriptor().target() + "/" + t.arm.label() + "/" + t.way.label;
            }
        } finally {
            stream.close();
        }
    }

    private static Fate nonTerminal(Random rnd) {
        double r = rnd.nextDouble();
        if (r < CANCEL_SHARE) return Fate.CANCEL;
        if (r < CANCEL_SHARE + TIMEOUT_SHARE) return Fate.TIMEOUT;
        if (r < CANCEL_SHARE + TIMEOUT_SHARE + INTERRUPT_SHARE) return Fate.INTERRUPT;
        if (r < CANCEL_SHARE + TIMEOUT_SHARE + INTERRUPT_SHARE + READBACK_THROWS_SHARE) return Fate.READBACK_THROWS;
        return Fate.COMPLETE;
    }

    /** A way of waiting that can reach the fate's outcome: a timeout needs a time limit, an interrupt a thread. */
    private static Way way(Fate f, Random rnd) {
        Way[] all = Way.values();
        return switch (f) {
            case TIMEOUT -> rnd.nextBoolean() ? Way.JOIN_TIMED : Way.GET_TIMED;
            case INTERRUPT -> all[rnd.nextInt(4)]; // JOIN, JOIN_TIMED, GET, GET_TIMED
            default -> all[rnd.nextInt(all.length)];
        };
    }

    private Arm arm(Random rnd) {
        double r = rnd.nextDouble();
        for (Arm a : arms) {
            if (r < a.weight()) return a;
            r -= a.weight();
        }
        return arms.getLast();
    }

    /** Half the kernels take no time (back-to-back stores); the rest are spread around the pacing mean. */
    private static long work(Random rnd, long mean) {
        if (mean == 0 || rnd.nextBoolean()) return 0;
        return (long) (rnd.nextDouble() * 4 * mean);
    }

    private static void pause(Random rnd) {
        int r = rnd.nextInt(4);
        if (r == 0) return;
        if (r == 1) Thread.onSpinWait(); else java.util.concurrent.locks.LockSupport.parkNanos(rnd.nextInt(300_000));
    }

    private void start(Tracked t) {
        ways.computeIfAbsent(t.way.label, k -> new LongAdder()).increment();
        if (t.way == Way.ON_COMPLETE) {
            t.future.onComplete((v, ex) -> {
                t.callbackRan();
                t.record(ex == null ? Observed.value(v) : Observed.of(ex));
            });
        }
        for (int j = 0; j < t.threads; j++) {
            Way w = j == 0 ? t.way : t.fate.isGated() ? EXTRA_WAYS[(int) Math.floorMod(t.token + j, (long) EXTRA_WAYS.length)] : Way.JOIN;
            boolean first = j == 0;
            Runnable body = () -> join(t, w, first);
            Thread th = t.platform
                    ? Thread.ofPlatform().daemon(true).name("gar-soak-joiner").unstarted(body)
                    : t.arm.reactor().threadFactory().newThread(body);
            if (j == 0) t.joiner = th;
            if (t.platform) platformJoiners.increment();
            th.start();
        }
    }

    /**
     * One joiner. The first joiner of a TIMEOUT or INTERRUPT fate sees its own wait end, then
     * (interrupt flag cleared) joins again and must see what every other joiner sees.
     */
    private static void join(Tracked t, Way w, boolean first) {
        if (first && t.fate.ownCode() != null) {
            t.recordOwn(waitOnce(t, w, t.limitNanos));
            Thread.interrupted();
            t.record(waitOnce(t, Way.JOIN, LONG_LIMIT.toNanos()));
        } else {
            t.record(waitOnce(t, w, first ? t.limitNanos : LONG_LIMIT.toNanos()));
        }
    }

    private static Observed waitOnce(Tracked t, Way w, long limitNanos) {
        GpuFuture<Long> f = t.future;
        try {
            Long v = switch (w) {
                case JOIN -> f.join();
                case JOIN_TIMED -> f.join(Duration.ofNanos(limitNanos));
                case GET -> f.get();
                case GET_TIMED -> f.get(limitNanos, TimeUnit.NANOSECONDS);
                case STAGE -> f.toCompletableFuture().whenComplete((v2, e2) -> t.callbackRan()).get();
                case ON_COMPLETE -> throw new AssertionError("a callback, not a joiner");
            };
            return Observed.value(v);
        } catch (Throwable e) {
            return Observed.of(e);
        }
    }

    /**
     * Waits until every joiner of the segment has seen its outcome. A future still unsettled once
     * its stream has been idle for the settle bound (or the segment has run far past its work) is
     * classified, counted, and cancelled so the run goes on.
     */
    private void awaitSegment(SimStream stream, List<Tracked> ts, CountDownLatch segment, long workNanos) {
        long settle = config.settle().toNanos();
        long start = System.nanoTime(), hard = start + workNanos + 3 * settle;
        long idleSince = -1;
        try {
            while (!segment.await(20, TimeUnit.MILLISECONDS)) {
                long now = System.nanoTime();
                if (stream.isIdle()) {
                    if (idleSince < 0) idleSince = now;
                } else {
                    idleSince = -1;
                }
                if ((idleSince >= 0 && now - idleSince > settle) || now - hard > 0) {
                    recover(ts, segment);
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = "interrupted";
        }
    }

    private void recover(List<Tracked> ts, CountDownLatch segment) throws InterruptedException {
        for (Tracked t : ts) {
            if (t.observations.get() >= t.expectedObservations()) continue;
            t.recovered = true;
            boolean settled = t.future.isDone();
            if (settled || deviceDone(t)) {
                lost.increment();
                sample("lost wake: " + t.fate.label() + " on " + t.signal.descriptor() + " (" + t.arm.label() + ", " + t.way.label
                        + (t.platform ? ", platform thread" : "") + "): " + (settled
                        ? "settled as " + t.future.state() + " but a joiner never saw it"
                        : "the device finished, the wait never settled"));
            } else {
                hung.increment();
                sample("hung: " + t.fate.label() + " on " + t.signal.descriptor() + " (" + t.arm.label() + ", " + t.way.label
                        + "): its " + t.fate.label() + " did not end the wait (state " + t.future.state() + ")");
            }
            if (snapshotTaken.compareAndSet(false, true)) snapshotThreads(t);
            t.future.cancel(true);
            Thread j = t.joiner;
            if (j != null) j.interrupt();
            if (t.gate != null) t.gate.countDown();
        }
        if (!segment.await(config.settle().toMillis(), TimeUnit.MILLISECONDS)) {
            stopped = "joiners stayed stuck after their waits were cancelled";
        }
    }

    /**
     * Where the threads were when {@code t}'s wait was found lost or hung, before the recovery
     * cancels it: its first joiner, then every live platform thread of this library (carriers,
     * parkers), each with its state and top frames, then from the JVM's thread dump every mounted
     * virtual thread with the carrier or parker it holds, the unmounted ones grouped, and the JDK's
     * unblocker and unparkers ({@link ThreadSnapshot}): a carrier's own stack ends where the virtual
     * thread it runs begins. A lost wake is a race seen once in many runs; this is what tells the
     * next reader where it stood.
     */
    private void snapshotThreads(Tracked t) {
        Thread j = t.joiner;
        if (j != null) stacks.add("joiner " + j + " of " + t.fate.label() + " on " + t.signal.descriptor() + ": " + frames(j, j.getStackTrace()));
        Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("gar-carrier") || e.getKey().getName().startsWith("gar-parker"))
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(Thread::getName)))
                .forEach(e -> stacks.add(e.getKey().getName() + ": " + frames(e.getKey(), e.getValue())));
        stacks.addAll(ThreadSnapshot.lines(STACK_FRAMES, 8));
    }

    private static String frames(Thread th, StackTraceElement[] st) {
        StringBuilder b = new StringBuilder(th.getState().toString());
        for (int i = 0; i < Math.min(STACK_FRAMES, st.length); i++) b.append(i == 0 ? " at " : " <- ").append(st[i]);
        return b.toString();
    }

    private static boolean deviceDone(Tracked t) {
        try {
            return t.signal.descriptor().isComplete() || t.signal.port().query();
        } catch (ReactorException e) {
            return true; // failed: the query has spoken
        }
    }

    private void verify(Tracked t, String previous) {
        observed.increment();
        Observed o = t.first.get();
        outcomes.computeIfAbsent(o.bucket(), k -> new LongAdder()).increment();
        String where = t.fate.label() + " on " + t.signal.descriptor() + " (" + t.arm.label() + ", " + t.way.label
                + (t.platform ? ", platform thread" : "") + ")";
        Fate f = t.fate;
        boolean right = f == Fate.READBACK_THROWS ? o.readbackThrew()
                : f.expectedCode() == null ? o.value() != null && o.value() == t.token : o.code() == f.expectedCode();
        Observed own = t.own;
        boolean ownRight = f.ownCode() == null || t.threads == 0 || own != null && own.code() == f.ownCode();
        if (!right) {
            mismatched.increment();
            sample("mismatch: " + where + ": observed " + o + ", expected "
                    + (f == Fate.READBACK_THROWS ? "the readback's own exception" : f.expectedCode() == null ? "its payload" : f.expectedCode().name()));
        } else if (!ownRight) {
            mismatched.increment();
            sample("mismatch: " + where + ": the first joiner's own wait ended with " + own + ", expected " + f.ownCode().name());
        } else if (t.disagreement != null) {
            mismatched.increment();
            sample("mismatch: " + where + ": " + t.disagreement);
        } else if (t.future.state() != f.expectedState()) {
            mismatched.increment();
            sample("mismatch: " + where + ": state " + t.future.state() + " after the outcome, expected " + f.expectedState());
        }
        int rb = t.readbacks.get();
        if (rb > 1 || t.observations.get() > t.expectedObservations()) {
            duplicated.increment();
            sample("duplicated wake: " + where + ": readback ran " + rb + " times, " + t.observations.get() + " outcomes delivered for "
                    + t.expectedObservations());
        }
        if (t.wrongWake || (f.expectedCode() != null && rb != 0)) {
            wrong.increment();
            sample("wrong wake: " + where + ": readback ran with the word short of its target or the payload missing, or for a wait that must fail");
        }
        if (t.callbackOnParker) {
            wrong.increment();
            sample("wrong thread: " + where + ": a stage callback ran on a parker thread");
        }
        String key = t.signal.descriptor().toString();
        if (f == Fate.LOST_WORD) {
            lostWordsExpected.increment();
            // The warning is raised by whoever completed the wait, right after it: allow it a moment.
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (!lostWordWarnings.containsKey(key) && System.nanoTime() - end < 0) Thread.onSpinWait();
            Integer n = lostWordWarnings.remove(key);
            int seen = n == null ? 0 : n;
            lostWordsSeen.add(Math.min(seen, 1));
            if (seen != 1) {
                wrong.increment();
                sample("lost word " + where + ": " + seen + " WordNeverWritten warnings, expected 1; word now "
                        + t.signal.descriptor().line().word(t.signal.descriptor().slot()) + ", at readback " + t.wordAtReadback
                        + ", readbacks " + rb + ", previous on the slot: " + previous);
            }
        } else {
            Integer n = lostWordWarnings.remove(key);
            if (n != null) {
                wrong.increment();
                sample("wrong warning: " + where + ": WordNeverWritten for a word that was written");
            }
        }
    }

    private long awaitNoRegistrations() {
        long end = System.nanoTime() + config.settle().toNanos();
        long n;
        while ((n = registrations()) != 0 && System.nanoTime() - end < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        return n;
    }

    private long registrations() {
        long n = 0;
        for (Arm a : arms) n += a.reactor().registrations();
        return n;
    }

    private void sample(String s) {
        if (samples.size() < SAMPLES) samples.add(s);
    }

    private long faults() {
        long n = 0;
        for (Map.Entry<Fate, LongAdder> e : byFate.entrySet()) if (e.getKey().isFault()) n += e.getValue().sum();
        return n;
    }

    private static Map<String, Long> sums(Map<String, LongAdder> m) {
        Map<String, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Heap used after a full GC: the least of three tries (a collection can leave floating garbage). */
    static long heapAfterGc() {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            best = Math.min(best, m.getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    static String host() {
        String cpu = "";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim() + ", ").orElse("");
        } catch (Exception e) {
            // not Linux, or not readable: the rest still says what ran
        }
        return cpu + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", JDK " + Runtime.version() + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB";
    }
}
