package dev.gpureactor.loom;

import dev.gpureactor.parker.SlotPoint;
import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.parker.ReactorControls;
import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.SnapshotPark;
import dev.gpureactor.parker.ParkerRoster;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.Capability;
import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Declared;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointEstimate;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Strictness;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.WordWait;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The entry point: turns a {@link MemoryDescriptor} and its {@link CompletionPort} into a
 * {@link GpuFuture}, and runs virtual threads on its carriers.
 *
 * <pre>
 *  virtual threads ── join() parks ──►  GpuFuture ◄── signal() ── LineParker (1 platform thread per line or group of lines)
 *        ▲                                                           │ OS sleep to the prediction,
 *        └──── CarrierPool (platform carriers) ◄── unpark ───────────┘ then bounded parks on the line
 * </pre>
 *
 * <p>A virtual thread a parker wakes runs on that parker's thread itself ({@link Builder#hosting}, on
 * by default; not under a carrier backlog), so the wake costs no carrier wake-up; while the lines
 * have other waits the loop first goes to the parker's thread standing by (leader/follower).
 *
 * <p>Settings are resolved once, at build: the {@link ExecutorKind} (declared chain io-uring →
 * gpu-reactor → naive) and the {@link Scheduler} (carrier-pool → jdk-default), each with a coded
 * warning where it fell back, or a coded refusal when strict. The warnings are kept as values and go to
 * the {@link Builder#warnings sink}: by default the {@code System.Logger} {@code "dev.gpureactor"}, each
 * code once per reactor.
 */
public final class GpuReactor implements AutoCloseable {
    /** How many warnings {@link #warnings()} keeps. */
    public static final int WARNINGS_KEPT = 1024;
    /** {@link #park()} of a reactor whose parkers use the pure-Java park. */
    public static final String FALLBACK_PARK = "fallback (spin, then parkNanos slices)";
    /**
     * Lines one parker watches by default under the pure-Java park ({@link Builder#linesPerParker}):
     * its slices poll every word of all its lines, so more lines per thread cost no more wakes
     * (docs/SCALE.md, "Parkers over several lines").
     */
    public static final int FALLBACK_LINES_PER_PARKER = 8;
    /** Lines one parker watches by default under a hardware word wait: a monitor arms one line. */
    public static final int HARDWARE_LINES_PER_PARKER = 1;

    private final Declared.Resolved<ExecutorKind> kind;
    private final Declared.Resolved<Scheduler> scheduler;
    private final WaitPlan plan;
    /** The plan's text, computed once: each wait carries it for the JFR wait event. */
    private final String planLabel;
    /** Who runs the plan on a joining thread: one value for every await, so an await allocates none. */
    private final Inline inline;
    /** The waits whose plan a thread runs now (no parker holds them): {@link #close} ends them here. */
    private final PlanRuns planRuns = new PlanRuns();
    private final PointTable<Object> points = new PointTable<>();
    private final Clock clock = Clock.system();
    private final CarrierPool pool;
    /** New virtual threads on this reactor's scheduler; on the carrier pool, each counted live by the pool. */
    private final ThreadFactory virtualThreads;
    /**
     * Executors made by {@link #newExecutor()} and not yet terminated: shut down by {@link #close()}.
     * Weak: an executor dropped by its user with nothing running is not kept (one with a running task
     * is reachable from that task's thread, which the pool keeps live). Guarded by itself.
     */
    private final Set<GpuExecutorService> executors = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    private final Executor callbacks;
    /** What the parkers park with: the hardware word wait's description, or the fallback's. */
    private final String parkLabel;
    /** The pure-Java park's slice ({@link Builder#parkSlice}). */
    private final long parkSliceNanos;
    /** Each line's parker and the registration of a wait with it. */
    private final ParkerRoster parkers;
    private final int linesPerParker;
    private final ReactorCounters counters = new ReactorCounters();
    private final ReactorWarnings warnings;
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean closed;

    /** The reactor's name: its JMX bean's {@code name} key. */
    private final String name;
    /**
     * The JMX bean, or null (off, or refused). Written once by {@link Builder#build} before the
     * reactor is returned, so any thread that was handed the reactor sees it.
     */
    private ReactorBean bean;

    private GpuReactor(Builder b) {
        FirstUse.ensure(); // the await path's class initialisation and linkage, off the awaiting virtual threads
        this.name = b.name != null ? b.name : "reactor-" + Integer.toHexString(System.identityHashCode(this));
        this.warnings = new ReactorWarnings(b.warningSink != null ? b.warningSink : new LoggedWarnings(name));
        ReactorChoices choices = new ReactorChoices(b, warnings);
        this.kind = choices.kind;
        this.scheduler = choices.scheduler;
        this.plan = b.plan;
        this.planLabel = b.plan.label();
        WaitPlan.FlagWait parkerPlan = b.plan instanceof WaitPlan.FlagWait f ? f
                : new WaitPlan.FlagWait(100_000, 1_000_000, b.plan.predict());
        this.parkSliceNanos = b.parkSliceNanos;
        this.parkLabel = choices.parkLabel;
        this.linesPerParker = choices.linesPerParker;
        if (scheduler.running() == Scheduler.CARRIER_POOL) {
            pool = new CarrierPool(b.carriers > 0 ? b.carriers : defaultCarriers(), warnings);
            virtualThreads = pool.threadFactory(VirtualThreads.builder(pool).name("gar-vt-", 0));
            callbacks = pool.callbacks(); // never kept by a parker: callbacks do not run on parkers
        } else {
            pool = null;
            virtualThreads = Thread.ofVirtual().name("gar-vt-", 0).factory();
            callbacks = ForkJoinPool.commonPool();
        }
        // The settings each new parker takes, read from the builder now: a later change to it reaches no reactor built.
        SnapshotPark linePark = choices.linePark;
        long spin = b.parkSpinNanos;
        Supplier<Sleeper> sleeper = kind.running() == ExecutorKind.IO_URING ? b.deadlineSleeper : null;
        boolean hosting = b.hosting;
        ParkerHooks hooks = b.parkerHooks;
        this.parkers = new ParkerRoster(linesPerParker, line -> new LineParker(line, linePark, parkerPlan, points,
                clock, warnings, counters, spin, sleeper, pool, hosting, hooks), points, () -> closed, b.controls);
        // Under gpu-reactor with a flag plan the parker watches and only a platform joiner runs the
        // plan (the std host); under the naive kind, or a plan the parker cannot watch, any joiner does.
        boolean parkerWatches = kind.running() != ExecutorKind.NAIVE && plan instanceof WaitPlan.FlagWait;
        this.inline = new Inline.Plan(new NaiveWait(plan, points, clock, warnings, planRuns), parkerWatches,
                task -> virtualThreads.newThread(task).start());
    }

    /**
     * What this host offers, probed once per process where it can be.
     *
     * @return the carriers, virtual threads and hardware word wait found here; io_uring is reported
     *         missing (the io_uring host probes it)
     */
    public static HostCaps probe() {
        return new HostCaps(Capability.present(), VirtualThreads.capability(), WordWait.probe().capability(),
                Capability.missing("probed by the io_uring host (dev.gpureactor.host.uring.UringProbe.hostCaps), not by the reactor"));
    }

    /**
     * A builder with every setting at its default.
     *
     * @return a new builder
     */
    public static Builder builder() { return new Builder(); }

    /**
     * The default carrier count: one per core, as the JDK's own scheduler (its carriers park in the
     * pool and leave the core to a parker the moment it is runnable).
     *
     * @return {@link Runtime#availableProcessors()}
     */
    public static int defaultCarriers() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * A reactor with the defaults: gpu-reactor on a carrier pool, the default plan.
     *
     * @return a new reactor; close it when done
     */
    public static GpuReactor open() { return builder().build(); }

    /**
     * Waits for {@code descriptor} to be reached, with {@code port} as the error authority, and
     * then runs {@code readback} (on the joining thread) to produce the result.
     *
     * @param <T>        the result's type
     * @param descriptor the word and the value that means done
     * @param port       the error authority, queried on the backstop schedule
     * @param readback   produces the result once the work is done
     * @return the future of the wait, settled by the word, the port, a cancel or the reactor's close
     */
    public <T> GpuFuture<T> await(MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback) {
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(readback, "readback"); // no readback: the two-argument await
        return start(descriptor, port, readback, defaultPoint(descriptor.line(), descriptor.slot().index()));
    }

    /**
     * {@link #await(MemoryDescriptor, CompletionPort, Supplier)} with no readback: the result is {@code null}.
     *
     * @param descriptor the word and the value that means done
     * @param port       the error authority, queried on the backstop schedule
     * @return the future of the wait
     */
    public GpuFuture<Void> await(MemoryDescriptor descriptor, CompletionPort port) {
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(port, "port");
        return start(descriptor, port, null, defaultPoint(descriptor.line(), descriptor.slot().index()));
    }

    /**
     * As {@link #await(MemoryDescriptor, CompletionPort, Supplier)}, estimating under the readback
     * point {@code pointKey} instead of the descriptor's line and slot.
     *
     * @param <T>        the result's type
     * @param descriptor the word and the value that means done
     * @param port       the error authority, queried on the backstop schedule
     * @param readback   produces the result once the work is done
     * @param pointKey   the key of the estimate this wait feeds and reads: waits of one kind of work share one
     * @return the future of the wait
     */
    public <T> GpuFuture<T> await(MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback, Object pointKey) {
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(readback, "readback");
        Objects.requireNonNull(pointKey, "pointKey");
        return start(descriptor, port, readback, pointKey);
    }

    private <T> GpuFuture<T> start(MemoryDescriptor d, CompletionPort port, Supplier<? extends T> readback, Object pointKey) {
        long now = clock.nanos();
        long sleep = 0, resume = 0, spread = 0;
        if (plan.predict().isPresent()) {
            PointEstimate e = points.estimate(pointKey);
            sleep = e.sleepNanos(plan.predict().get()).orElse(0);
            // Past a prediction that a late wake halved, the work's exact floor (LineWatch.decide).
            resume = Math.max(sleep, e.resumeSleepNanos(plan.predict().get()).orElse(0));
            // The point's recent spread, uncapped: the turn spins past the wake only for a sharp point
            // (LineWatch.decide, "when speed pays").
            spread = e.spreadNanos();
        }
        GpuFuture<T> f = new GpuFuture<>(ids.incrementAndGet(), d, port, readback, callbacks, now, now + sleep, now + resume,
                spread, pointKey, planLabel, inline);
        if (closed) {
            f.fail(new ReactorException(ErrorCode.ShutDown, "reactor"));
            return f;
        }
        try {
            if (d.line().isClosed()) {
                f.fail(new ReactorException(ErrorCode.LineClosed, d.line().name(), "wait"));
                return f;
            }
            if (d.isComplete()) { // fast path: one acquire load, no registration
                f.signal();
                return f;
            }
            if (kind.running() == ExecutorKind.NAIVE || !(plan instanceof WaitPlan.FlagWait)) {
                return f; // the policy has its first joiner (or a stage's runner) run the plan
            }
            // A platform-thread joiner runs the plan itself (the std host); virtual threads wait for the parker.
            parkers.register(d.line(), f.lineWait);
        } catch (ReactorException e) {
            // The line closed under us (its reads throw LineClosed): the wait fails with that, like
            // a wait that started on a closed line. A registration already made is failed and
            // counted down by the parker's close, which the line's close runs.
            if (e.code() != ErrorCode.LineClosed) throw e;
            f.fail(e);
        }
        return f;
    }

    /** A slot's default readback point. */
    static Object defaultPoint(CompletionLine line, int slot) {
        return new SlotPoint(line, slot);
    }

    /**
     * Lines one parker thread watches at most.
     *
     * @return {@link Builder#linesPerParker}, or the default for the park in use
     */
    public int linesPerParker() { return linesPerParker; }

    /** Test access: the waits whose plan a thread runs now. */
    PlanRuns planRuns() { return planRuns; }

    /** Parker test access: the line's current parker, or null. */
    LineParker parkerOf(CompletionLine line) { return parkers.parkerOf(line); }


    /**
     * A drop-in {@link java.util.concurrent.ExecutorService}: one virtual thread per task on this
     * reactor's carriers ({@link ErrorCode#Rejected} once closed).
     *
     * @return a new executor; the reactor's close shuts it down
     */
    public GpuExecutorService newExecutor() {
        if (closed) throw new ReactorException(ErrorCode.Rejected, "reactor", "executor");
        GpuExecutorService e = new GpuExecutorService(threadFactory(), executors::remove);
        executors.add(e);
        if (closed) e.shutdown(); // close() may have taken its snapshot before the add: see close()
        return e;
    }

    /**
     * A factory of virtual threads on this reactor's carriers ({@link ErrorCode#Rejected} once
     * closed). Once the reactor is closed, the {@code newThread} of a factory taken before (and
     * starting a thread it made before, once no thread of the pool lives) throws a
     * {@link java.util.concurrent.RejectedExecutionException} coded {@link ErrorCode#Rejected}.
     *
     * @return the reactor's factory of virtual threads named {@code gar-vt-N}
     */
    public ThreadFactory threadFactory() {
        if (closed) throw new ReactorException(ErrorCode.Rejected, "reactor", "virtual thread");
        return virtualThreads;
    }

    /**
     * Starts {@code task} on a new virtual thread on this reactor's carriers ({@link ErrorCode#Rejected} once closed).
     *
     * @param task what the thread runs
     * @return the started thread
     */
    public Thread startVirtualThread(Runnable task) {
        Objects.requireNonNull(task, "task");
        Thread t = threadFactory().newThread(task);
        t.start();
        return t;
    }

    /**
     * The executor kind that runs, after any fallback.
     *
     * @return the running kind
     */
    public ExecutorKind kind() { return kind.running(); }

    /**
     * How the requested executor kind resolved on this host.
     *
     * @return the kind asked for, the kind running, and the fallback's warning if there was one
     */
    public Declared.Resolved<ExecutorKind> kindResolution() { return kind; }

    /**
     * How the requested scheduler resolved on this host.
     *
     * @return the scheduler asked for, the one running, and the fallback's warning if there was one
     */
    public Declared.Resolved<Scheduler> schedulerResolution() { return scheduler; }

    /**
     * The wait plan every wait of this reactor follows.
     *
     * @return the plan given to {@link Builder#plan}, or the default
     */
    public WaitPlan plan() { return plan; }

    /**
     * What the parkers park with.
     *
     * @return the hardware word wait's {@code describe()}, or {@value #FALLBACK_PARK}
     */
    public String park() { return parkLabel; }

    /**
     * How long a parker sleeps between two looks at its lines under the pure-Java park.
     *
     * @return {@link Builder#parkSlice}, or its default
     */
    public Duration parkSlice() { return Duration.ofNanos(parkSliceNanos); }

    /**
     * The readback-point estimates, shared by every wait of this reactor.
     *
     * @return the live table (not a copy)
     */
    public PointTable<Object> points() { return points; }

    /**
     * The carrier pool, as a view.
     *
     * @return the pool's view, or empty when running on the JDK's default scheduler
     */
    public Optional<CarrierView> carriers() { return pool == null ? Optional.empty() : Optional.of(new PoolView(pool)); }

    /** The pool itself, or null on the JDK's scheduler. */
    CarrierPool pool() { return pool; }

    /**
     * The executor callbacks run on by default.
     *
     * @return the carrier pool's callback executor, or the common pool on the JDK's scheduler
     */
    public Executor callbackExecutor() { return callbacks; }

    /**
     * What this reactor did so far: carrier runs, parker wakes, sleeps and parks, backstop queries,
     * carrier busy and idle time. Each counter is read once; the set is no snapshot of one moment.
     *
     * @return the counters as read now
     */
    public RunStats stats() {
        ReactorCounters.Counts c = counters.counts();
        CarrierPool p = pool;
        return new RunStats(p == null ? 0 : p.tasksRun(), c.woke(), c.slept(), c.parked(), c.queried(),
                p == null ? 0 : p.idleNanos(), p == null ? 0 : p.busyNanos(), c.registrations(), c.parkersStarted(),
                c.parkersDied(), c.hosted(), c.relieved(), p == null ? 0 : p.queueDepth(), p == null ? 0 : p.liveThreads(),
                p == null ? 0 : p.size(), c.parkerCpuNanos(), p == null ? 0 : p.compensations());
    }

    /**
     * This reactor's name ({@link Builder#name}, else {@code reactor-<hex>}). Its JMX bean, if any, is
     * {@link #jmxName()}, whose {@code name} key may carry a {@code -2}, {@code -3}… suffix where two
     * reactors share a name.
     *
     * @return the name
     */
    public String name() { return name; }

    /**
     * The object name of this reactor's {@link GpuReactorMXBean}, while it is registered.
     *
     * @return the name, or empty when JMX is off or the reactor is closed
     */
    public Optional<javax.management.ObjectName> jmxName() {
        ReactorBean b = bean;
        return b == null || closed ? Optional.empty() : Optional.of(b.objectName());
    }

    /**
     * Whether {@link #close()} has begun.
     *
     * @return true once closing or closed
     */
    public boolean isClosed() { return closed; }

    /** Lines with a parker now (JMX). */
    int lines() { return parkers.lines(); }

    /** Lines whose parker is live (JMX). */
    int liveParkers() { return parkers.liveParkers(); }

    /**
     * Waits registered with a parker and not yet settled.
     *
     * @return the count as read now
     */
    public long registrations() { return counters.registrations(); }

    /**
     * The first {@value #WARNINGS_KEPT} warnings this reactor raised, in order (the build's fallback
     * warnings come first). Later ones reach only the sink: a reactor that lives for days next to a
     * flaky device must not grow a list without bound. {@link #warningsRaised()} counts them all.
     *
     * @return a copy of the kept warnings
     */
    public List<Warning> warnings() { return warnings.kept(); }

    /**
     * How many warnings this reactor raised, kept or not.
     *
     * @return the count
     */
    public long warningsRaised() { return warnings.raised(); }

    /**
     * How many times the warnings sink (the one given to {@link Builder#warnings}, else the default log) threw. What it throws is dropped
     * there: it fails no wait, stops no parker and no {@link #close}; the warning is still kept
     * and counted ({@link #warnings()}, {@link #warningsRaised()}).
     *
     * @return the count
     */
    public long warningSinkFailures() { return warnings.sinkFailures(); }

    /**
     * Closes the reactor, in this order: (1) new virtual-thread starts and executor submissions
     * are refused (a {@link java.util.concurrent.RejectedExecutionException} coded
     * {@link ErrorCode#Rejected}) and every executor of this reactor
     * says {@code isShutdown()}; (2) every pending wait fails with {@link ErrorCode#ShutDown} at
     * once, whoever watches it: a parker (which stops), or a thread running its plan (a platform
     * joiner, any joiner under the {@code naive} kind, the runner that took the plan over after a
     * joiner's limit), whose plan ends at its next step; every joiner of it, platform or virtual, is
     * answered. A wait under the {@code naive} kind that nobody joined yet fails at its first join
     * or stage (nobody watches it before); a {@code block} plan's vendor wait cannot be ended early,
     * as for a cancel. (3) the carrier pool closes: virtual threads already
     * started keep running to their end (no resume of one is ever rejected, whoever unparks it),
     * the carriers leave after the last of them, and {@code close} returns once they did or after
     * {@link CarrierPool#CLOSE_GRACE}, with a coded {@link ErrorCode#LiveAtClose} warning naming
     * the threads still alive. Called from one of the reactor's own virtual threads (or a carrier),
     * it does not wait for them, so it never deadlocks. Idempotent.
     *
     * <p>A registration racing with close: {@code close} writes {@code closed} and then reads the
     * parker map; a registrar puts its parker in the map and then reads {@code closed} (both
     * volatile, so sequentially consistent). Either close sees the parker and stops it, or the
     * registrar sees {@code closed} and stops it itself: no parker thread outlives its reactor.
     * Executors race the same way through {@code executors} and {@code closed} (see {@link #newExecutor}).
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        List<GpuExecutorService> open;
        synchronized (executors) {
            open = List.copyOf(executors);
        }
        for (GpuExecutorService e : open) e.shutdown();
        Set<LineParker> all = parkers.takeAll();
        try {
            ReactorException why = new ReactorException(ErrorCode.ShutDown, "reactor");
            for (LineParker p : all) p.inbox.close(why);
            planRuns.close(why); // the waits whose plan a thread runs: no parker holds them
            if (pool != null) pool.close();
        } finally {
            if (bean != null) bean.unregister(); // whatever failed above: a closed reactor leaves no bean
        }
    }

    /** The pure-Java park's default slice ({@link Builder#parkSlice}). */
    public static final long DEFAULT_PARK_SLICE_NANOS = 50_000;
    static final long MIN_PARK_SLICE_NANOS = 1_000, MAX_PARK_SLICE_NANOS = 10_000_000;

    /** Settings, all optional. */
    public static final class Builder {
        ExecutorKind kind = ExecutorKind.GPU_REACTOR;
        Scheduler scheduler = Scheduler.CARRIER_POOL;
        Strictness strictness = Strictness.FALLBACK;
        WaitPlan plan = WaitPlan.parse("flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8");
        /** 0: the default ({@link #defaultCarriers()}). */
        int carriers;
        long parkSpinNanos = 200_000;
        /** The pure-Java park's OS sleep between two looks at the words (docs/SERVICE.md measures 50 and 100 µs). */
        long parkSliceNanos = DEFAULT_PARK_SLICE_NANOS;
        boolean hosting = true;
        boolean hardwarePark = true;
        /** 0: by the park ({@link #FALLBACK_LINES_PER_PARKER} or {@link #HARDWARE_LINES_PER_PARKER}). */
        int linesPerParker;
        HostCaps caps;
        Consumer<Warning> warningSink;
        Supplier<Sleeper> deadlineSleeper;
        String name;
        boolean jmx = true;
        ParkerHooks parkerHooks = ParkerHooks.NONE;
        ReactorControls controls = ReactorControls.NONE;

        private Builder() {}

        /** Tests: the faults every parker of the reactor lets {@code hooks} inject. */
        Builder parkerHooks(ParkerHooks hooks) { this.parkerHooks = Objects.requireNonNull(hooks, "hooks"); return this; }

        /** Tests: the handshake line a negative control removes from the reactor. */
        Builder controls(ReactorControls c) { this.controls = Objects.requireNonNull(c, "controls"); return this; }

        /**
         * The reactor's name, shown in its JMX bean's object name and in {@link GpuReactor#name()}.
         *
         * @param name a non-blank name (else a coded {@link ErrorCode#InvalidArgument})
         * @return this builder
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) throw new ReactorException(ErrorCode.InvalidArgument, "name", "\"" + name + "\"", "a non-blank name");
            this.name = name;
            return this;
        }

        /**
         * Whether the reactor registers a {@link GpuReactorMXBean} with the platform MBean server
         * ({@code dev.gpureactor:type=GpuReactor,name=<name>}); on by default, unregistered on close.
         *
         * @param on whether to register the bean
         * @return this builder
         */
        public Builder jmx(boolean on) { this.jmx = on; return this; }

        /**
         * Where the parkers' deadline sleeps go under {@link ExecutorKind#IO_URING}: a factory called
         * once on each parker thread, e.g. {@code UringSleeper::open}. Without one, io-uring falls
         * back to gpu-reactor with a coded warning.
         *
         * @param factory makes one sleeper per parker thread, on that thread
         * @return this builder
         */
        public Builder deadlineSleeper(Supplier<Sleeper> factory) {
            this.deadlineSleeper = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * The executor kind to run; {@link ExecutorKind#GPU_REACTOR} by default. One that cannot run
         * here resolves by {@link #strictness}.
         *
         * @param kind the kind requested
         * @return this builder
         */
        public Builder kind(ExecutorKind kind) { this.kind = Objects.requireNonNull(kind, "kind"); return this; }

        /**
         * Where the reactor's virtual threads run; {@link Scheduler#CARRIER_POOL} by default. One that
         * cannot run here resolves by {@link #strictness}.
         *
         * @param scheduler the scheduler requested
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) { this.scheduler = Objects.requireNonNull(scheduler, "scheduler"); return this; }

        /**
         * What happens when the requested kind or scheduler cannot run here: a declared fallback with a
         * coded warning ({@link Strictness#FALLBACK}, the default) or a refusal ({@link Strictness#STRICT}).
         *
         * @param s the strictness
         * @return this builder
         */
        public Builder strictness(Strictness s) { this.strictness = Objects.requireNonNull(s, "strictness"); return this; }

        /**
         * The wait plan of every wait; by default
         * {@code flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8}.
         *
         * @param plan the plan
         * @return this builder
         */
        public Builder plan(WaitPlan plan) { this.plan = Objects.requireNonNull(plan, "plan"); return this; }

        /**
         * {@link #plan(WaitPlan)} from its text form.
         *
         * @param text a plan in the grammar of {@link WaitPlan} (else a coded {@link ErrorCode#InvalidPlan})
         * @return this builder
         */
        public Builder plan(String text) { return plan(WaitPlan.parse(Objects.requireNonNull(text, "text"))); }

        /**
         * How many carriers the carrier pool keeps; {@link #defaultCarriers()} by default.
         *
         * @param n at least 1 (else a coded {@link ErrorCode#InvalidArgument})
         * @return this builder
         */
        public Builder carriers(int n) {
            if (n < 1) throw new ReactorException(ErrorCode.InvalidArgument, "carriers", n, ">= 1");
            this.carriers = n;
            return this;
        }

        /**
         * How long a parker spins on its line before sleeping in parkNanos slices, when there is no
         * hardware park; from 0 (no spin) up to {@link Durations#MAX}, else a coded {@link ErrorCode#InvalidArgument}.
         *
         * @param d the spin; 200 µs by default
         * @return this builder
         */
        public Builder parkSpin(Duration d) { this.parkSpinNanos = Durations.nonNegativeNanos("parkSpin", d); return this; }

        /**
         * How long a parker sleeps in the OS between two looks at its lines' words under the pure-Java
         * park (no hardware word wait, or several busy lines): the trade between how late a store is
         * seen (about half a slice) and the CPU of waking up (one OS wake per slice while a wait is
         * due). 50 µs by default; a service that counts CPU per request before wake latency may choose
         * 100 µs (docs/SERVICE.md measures both). A slice never outlasts the park's bound, the plan's
         * {@code park_us} (100 µs by default) or the next backstop, whichever comes first: a longer
         * slice needs a plan with a longer {@code park_us}. Between {@value #MIN_PARK_SLICE_NANOS} ns
         * and {@value #MAX_PARK_SLICE_NANOS} ns: shorter is a spin made of system calls.
         *
         * @param d the slice
         * @return this builder
         */
        public Builder parkSlice(Duration d) {
            this.parkSliceNanos = Durations.nanos("parkSlice", d, MIN_PARK_SLICE_NANOS, MAX_PARK_SLICE_NANOS, "between 1 µs and 10 ms");
            return this;
        }

        /**
         * Whether a parker runs a virtual thread it wakes itself, on the thread that saw the store,
         * instead of handing it to a carrier (the locality-first wake; carrier pool only; never under
         * a carrier backlog). While its lines have other waits the parker first hands its loop to
         * the thread standing by (leader/follower); when they have none it keeps the loop, and a
         * registration or close that arrives while the guest runs hands it over then. So no wait goes
         * unwatched. On by default (docs/BENCHMARKS.md and docs/SERVICE.md measure both); off, every
         * woken virtual thread is handed to a carrier.
         *
         * @param on whether parkers host the virtual threads they wake
         * @return this builder
         */
        public Builder hosting(boolean on) { this.hosting = on; return this; }

        /**
         * Whether parkers use the host's hardware word wait (umwait, mwaitx, wfe) where the probe
         * found one (the default), or the pure-Java park even there: to compare the two on one host.
         *
         * @param on whether to use the hardware word wait where there is one
         * @return this builder
         */
        public Builder hardwarePark(boolean on) { this.hardwarePark = on; return this; }

        /**
         * How many lines one parker thread watches at most. A line is given a parker at its first
         * registration, the live one with the fewest lines below {@code n}, else a new one, and keeps
         * it for its life; a parker leaves when its last line closes. 1 is one parker per line. By
         * default {@value #HARDWARE_LINES_PER_PARKER} where the parkers use a hardware word wait
         * (a monitor arms one line) and {@value #FALLBACK_LINES_PER_PARKER} with the pure-Java park,
         * whose slices poll all the lines of a parker at the cost of one (docs/SCALE.md).
         *
         * @param n at least 1 (else a coded {@link ErrorCode#InvalidArgument})
         * @return this builder
         */
        public Builder linesPerParker(int n) {
            if (n < 1) throw new ReactorException(ErrorCode.InvalidArgument, "linesPerParker", n, ">= 1");
            this.linesPerParker = n;
            return this;
        }

        /**
         * Host capabilities to resolve against, instead of probing (tests, simulations).
         *
         * @param caps the capabilities
         * @return this builder
         */
        public Builder caps(HostCaps caps) { this.caps = Objects.requireNonNull(caps, "caps"); return this; }

        /**
         * Where the reactor's coded warnings go as they are raised (on parker threads, carriers, the
         * closing thread), instead of the default: the {@code System.Logger} named {@code "dev.gpureactor"},
         * once per {@link ErrorCode} per reactor (at {@code WARNING}; {@link ErrorCode#ParkFallback} at
         * {@code DEBUG}, or {@code INFO} without native access), so that the JDK-scheduler fallback
         * reaches the log of a run without flags. Either way every warning is also counted
         * ({@link GpuReactor#warningsRaised()}) and kept ({@link GpuReactor#warnings()}, the MXBean).
         * What the sink throws stays with it: counted in {@link GpuReactor#warningSinkFailures()},
         * never failing a wait or a close.
         *
         * @param sink receives each warning as it is raised
         * @return this builder
         */
        public Builder warnings(Consumer<Warning> sink) { this.warningSink = Objects.requireNonNull(sink, "sink"); return this; }

        /**
         * Resolves the kind and scheduler against the host and starts the reactor (and its carrier
         * pool and MXBean, where asked for).
         *
         * @return a new reactor; close it when done
         */
        public GpuReactor build() {
            GpuReactor r = new GpuReactor(this);
            if (jmx) r.bean = ReactorBean.register(r, r.name, r.warnings); // after construction: the bean reads a whole reactor
            return r;
        }
    }
}
