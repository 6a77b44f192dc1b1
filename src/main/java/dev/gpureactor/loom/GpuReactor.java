package dev.gpureactor.loom;

import dev.gpureactor.parker.SlotPoint;
import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.SchedulerProperties;
import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.Capability;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Declared;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
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
import java.util.concurrent.ThreadFactory;
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
     * Lines one parker watches by default under the pure-Java park ({@link Builder#linesPerParker}): its slices
     * poll every word of all its lines, so more lines cost no more wakes (docs/SCALE.md, "Parkers over several lines").
     */
    public static final int FALLBACK_LINES_PER_PARKER = 8;
    /** Lines one parker watches by default under a hardware word wait: a monitor arms one line. */
    public static final int HARDWARE_LINES_PER_PARKER = 1;

    /** The kind, scheduler and park as resolved at build. */
    private final ReactorChoices choices;
    private final WaitPlan plan;
    /** The waits whose plan a thread runs now (no parker holds them): {@link #close} ends them here. */
    private final PlanRuns planRuns = new PlanRuns();
    private final PointTable<Object> points = new PointTable<>();
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
    /** The pure-Java park's slice ({@link Builder#parkSlice}). */
    private final long parkSliceNanos;
    private final ReactorCounters counters = new ReactorCounters();
    /** Starts each wait and registers it with its line's parker. */
    private final WaitStarts starts;
    private final ReactorWarnings warnings;
    private final ReactorClose closing = new ReactorClose(); // begun once (volatile); when a concurrent close returns
    /** The factory users get: refuses from the close's first step on, where the pool's own refuses only at its last. */
    private final ThreadFactory userThreads;

    /** The reactor's name: its JMX bean's {@code name} key. */
    private final String name;
    /** The JMX bean, or null (off, or refused); written by {@link Builder#build} before the reactor is handed out. */
    private ReactorBean bean;

    private GpuReactor(Builder b) {
        FirstUse.ensure(); // the await path's class initialisation and linkage, off the awaiting virtual threads
        this.name = b.name != null ? b.name : "reactor-" + Integer.toHexString(System.identityHashCode(this));
        this.warnings = new ReactorWarnings(b.warningSink != null ? b.warningSink : new LoggedWarnings(name), name);
        this.choices = new ReactorChoices(b, warnings);
        this.plan = b.plan;
        this.parkSliceNanos = b.parkSliceNanos;
        ReactorThreads threads = ReactorThreads.of(choices.scheduler.running(), b.carriers > 0 ? b.carriers : defaultCarriers(), warnings);
        this.pool = threads.pool();
        this.virtualThreads = threads.virtualThreads();
        this.userThreads = ReactorThreads.refusingOnce(virtualThreads, closing::isClosed);
        this.callbacks = threads.callbacks();
        this.starts = new WaitStarts(b, choices, choices.kind.running(), points, warnings, counters, planRuns, pool, callbacks,
                task -> virtualThreads.newThread(task).start(), closing::isClosed);
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
     * {@return the carriers a reactor keeps unless {@link Builder#carriers} says otherwise} As the JDK sets its scheduler's
     * parallelism: {@code jdk.virtualThreadScheduler.parallelism}, else one per core, capped by its {@code maxPoolSize}.
     */
    public static int defaultCarriers() { return SchedulerProperties.parallelism(); }

    /**
     * A reactor with the defaults: gpu-reactor on a carrier pool, the default plan.
     *
     * @return a new reactor; close it when done
     */
    public static GpuReactor open() { return builder().build(); }

    /**
     * Waits for {@code descriptor} to be reached, with {@code port} as the error authority, and
     * then runs {@code readback} (on the joining thread) to produce the result. On a closed reactor the future
     * is failed {@link ErrorCode#ShutDown}, as a wait the close ended (an await racing a close cannot tell the
     * two apart); {@code Rejected} is the executors' and thread factories', which take no wait.
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
        return starts.start(descriptor, port, readback, new SlotPoint(descriptor.line(), descriptor.slot().index()));
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
        return starts.start(descriptor, port, null, new SlotPoint(descriptor.line(), descriptor.slot().index()));
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
     *                   (kept for the reactor's life, ~170 bytes a key: never a key per request; {@code points().forget} drops one)
     * @return the future of the wait
     */
    public <T> GpuFuture<T> await(MemoryDescriptor descriptor, CompletionPort port, Supplier<? extends T> readback, Object pointKey) {
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(readback, "readback");
        Objects.requireNonNull(pointKey, "pointKey");
        return starts.start(descriptor, port, readback, pointKey);
    }

    /**
     * Lines one parker thread watches at most.
     *
     * @return {@link Builder#linesPerParker}, or the default for the park in use
     */
    public int linesPerParker() { return choices.linesPerParker; }

    /** Test access: the waits whose plan a thread runs now. */
    PlanRuns planRuns() { return planRuns; }

    /** Parker test access: the line's current parker, or null. */
    LineParker parkerOf(CompletionLine line) { return starts.parkers().parkerOf(line); }

    /**
     * A drop-in {@link java.util.concurrent.ExecutorService}: one virtual thread per task on this
     * reactor's carriers ({@link ErrorCode#Rejected} once closed).
     *
     * @return a new executor; the reactor's close shuts it down
     */
    public GpuExecutorService newExecutor() {
        if (closing.isClosed()) throw new ReactorException(ErrorCode.Rejected, "reactor", "executor");
        GpuExecutorService e = new GpuExecutorService(threadFactory(), executors::remove);
        executors.add(e);
        if (closing.isClosed()) e.shutdown(); // close() may have taken its snapshot before the add: see close()
        return e;
    }

    /**
     * {@return the reactor's factory of virtual threads named {@code gar-vt-N} on its carriers} {@link ErrorCode#Rejected}
     * once closed. From the close's first step, the {@code newThread} of a factory taken before (and, once the carriers
     * left, starting a thread it made before) throws a {@link java.util.concurrent.RejectedExecutionException} coded {@code Rejected}.
     */
    public ThreadFactory threadFactory() {
        if (closing.isClosed()) throw new ReactorException(ErrorCode.Rejected, "reactor", "virtual thread");
        return userThreads;
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
    public ExecutorKind kind() { return choices.kind.running(); }

    /**
     * How the requested executor kind resolved on this host.
     *
     * @return the kind asked for, the kind running, and the fallback's warning if there was one
     */
    public Declared.Resolved<ExecutorKind> kindResolution() { return choices.kind; }

    /**
     * How the requested scheduler resolved on this host.
     *
     * @return the scheduler asked for, the one running, and the fallback's warning if there was one
     */
    public Declared.Resolved<Scheduler> schedulerResolution() { return choices.scheduler; }

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
    public String park() { return choices.parkLabel; }

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
    public RunStats stats() { return ReactorThreads.stats(counters.counts(), pool); }

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
        return b == null || closing.isClosed() ? Optional.empty() : Optional.of(b.objectName());
    }

    /**
     * Whether {@link #close()} has begun.
     *
     * @return true once closing or closed
     */
    public boolean isClosed() { return closing.isClosed(); }

    /** Lines with a parker now (JMX). */
    int lines() { return starts.parkers().lines(); }

    /** Lines whose parker is live (JMX). */
    int liveParkers() { return starts.parkers().liveParkers(); }

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
     * How many warnings the sink (the one given to {@link Builder#warnings}, else the default log) missed: it threw,
     * or, slow, it still had 1,024 to take from the reactor's own threads. Neither fails a wait, holds a parker or
     * stops {@link #close}; the warning is still kept and counted ({@link #warnings()}, {@link #warningsRaised()}).
     *
     * @return the count
     */
    public long warningSinkFailures() { return warnings.sinkFailures(); }

    /**
     * Closes the reactor, in this order: (1) new virtual-thread starts and executor submissions are refused (a
     * {@link java.util.concurrent.RejectedExecutionException} coded {@link ErrorCode#Rejected}) and every executor
     * of this reactor says {@code isShutdown()}; (2) every pending wait fails with {@link ErrorCode#ShutDown} at
     * once, whoever watches it: a parker (which stops), or a thread running its plan (a platform joiner, any
     * joiner under the {@code naive} kind, the runner that took the plan over after a joiner's limit), whose plan
     * ends at its next step; every joiner of it, platform or virtual, is answered. A wait nobody watched before
     * (nobody joined it yet: under the {@code naive} kind, or a {@code poll} or {@code block} plan) is settled at
     * its first join or stage by one query of its port: work the device finished completes it, failed work fails
     * it with the port's code, pending work with {@link ErrorCode#ShutDown}. A {@code block} plan's vendor wait
     * cannot be ended early, as for a cancel. (3) the carrier pool closes: virtual threads already started keep
     * running to their end (no resume of one is ever rejected, whoever unparks it), the carriers leave after the
     * last of them, and {@code close} returns once they did or after {@link CarrierPool#CLOSE_GRACE}, with a coded
     * {@link ErrorCode#LiveAtClose} warning naming the threads still alive. (4) It joins its own platform threads within
     * that grace: none runs on after it returns (unless one's guest blocked pinned). Called from one of the reactor's own
     * virtual threads (or a carrier), it does not wait for them, nor for another thread's close, so it never deadlocks.
     * Idempotent: a close while another thread's is under way returns once that one has.
     *
     * <p>A registration racing with close: {@code close} writes {@code closed} and then reads the parker map; a
     * registrar puts its parker in the map and then reads {@code closed} (both volatile, so sequentially
     * consistent). Either close sees the parker and stops it, or the registrar sees {@code closed} and stops it
     * itself: no parker thread outlives its reactor. Executors race the same way through {@code executors} and
     * {@code closed} (see {@link #newExecutor}).
     */
    @Override
    public void close() {
        boolean onOwnThread = pool != null && pool.runsHere(Thread.currentThread()); // which would wait for itself
        if (!closing.begin(onOwnThread)) return; // closed before (ReactorClose)
        List<GpuExecutorService> open;
        synchronized (executors) { open = List.copyOf(executors); } // a copy: an executor that ends removes itself
        for (GpuExecutorService e : open) e.shutdown();
        Set<LineParker> all = starts.parkers().takeAll();
        try {
            ReactorException why = new ReactorException(ErrorCode.ShutDown, "reactor");
            for (LineParker p : all) p.inbox.close(why);
            planRuns.close(why); // the waits whose plan a thread runs: no parker holds them
            if (pool != null) pool.close();
            if (!onOwnThread) starts.parkers().awaitLeft(CarrierPool.CLOSE_GRACE); // none of our threads runs on after close
        } finally {
            try { // whatever failed above: a closed reactor leaves no bean, and a concurrent close returns
                if (bean != null) bean.unregister();
            } finally { warnings.close(); closing.done(); }
        }
    }

    /** The pure-Java park's default slice ({@link Builder#parkSlice}; why 100 µs: docs/SERVICE.md, "Turns on the carriers"). */
    public static final long DEFAULT_PARK_SLICE_NANOS = 100_000;

    /** Settings, all optional: each setter checks its value and returns this builder. */
    public static final class Builder extends ReactorSettings {
        private Builder() {}

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
