package dev.gpureactor.loom;

import dev.gpureactor.carrier.SchedulerProperties;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Strictness;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.ReactorControls;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The settings of a {@link GpuReactor.Builder} and their setters, each of which checks its value: the
 * builder's whole body but {@code build}, kept here so the reactor's file holds the reactor. Package-private:
 * users see the setters as {@code GpuReactor.Builder}'s own.
 */
abstract sealed class ReactorSettings permits GpuReactor.Builder {
    /** Between these a {@link #parkSlice} is a slice, not a spin of system calls. */
    static final long MIN_PARK_SLICE_NANOS = 1_000, MAX_PARK_SLICE_NANOS = 10_000_000;

    ExecutorKind kind = ExecutorKind.GPU_REACTOR;
    Scheduler scheduler = Scheduler.CARRIER_POOL;
    Strictness strictness = Strictness.FALLBACK;
    WaitPlan plan = WaitPlan.parse("flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8");
    /** 0: the default ({@link GpuReactor#defaultCarriers()}). */
    int carriers;
    long parkSpinNanos = 200_000;
    /** The pure-Java park's OS sleep between two looks at the words (docs/SERVICE.md measures 50 and 100 µs). */
    long parkSliceNanos = GpuReactor.DEFAULT_PARK_SLICE_NANOS;
    /** Whether the user chose the slice: only then is a slice past the plan's park bound worth a warning. */
    boolean parkSliceChosen;
    boolean hosting = true;
    boolean hardwarePark = true;
    boolean carrierTurns = true;
    /** 0: by the park ({@link GpuReactor#FALLBACK_LINES_PER_PARKER} or {@link GpuReactor#HARDWARE_LINES_PER_PARKER}). */
    int linesPerParker;
    HostCaps caps;
    Consumer<Warning> warningSink;
    Supplier<Sleeper> deadlineSleeper;
    String name;
    boolean jmx = true;
    ParkerHooks parkerHooks = ParkerHooks.NONE;
    ReactorControls controls = ReactorControls.NONE;

    /** Tests: the faults every parker of the reactor lets {@code hooks} inject. */
    GpuReactor.Builder parkerHooks(ParkerHooks hooks) { this.parkerHooks = Objects.requireNonNull(hooks, "hooks"); return self(); }

    /** Tests: the handshake line a negative control removes from the reactor. */
    GpuReactor.Builder controls(ReactorControls c) { this.controls = Objects.requireNonNull(c, "controls"); return self(); }

    /**
     * The reactor's name, shown in its JMX bean's object name and in {@link GpuReactor#name()}.
     *
     * @param name a non-blank name (else a coded {@link ErrorCode#InvalidArgument})
     * @return this builder
     */
    public GpuReactor.Builder name(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) throw new ReactorException(ErrorCode.InvalidArgument, "name", "\"" + name + "\"", "a non-blank name");
        this.name = name;
        return self();
    }

    /**
     * Whether the reactor registers a {@link GpuReactorMXBean} with the platform MBean server
     * ({@code dev.gpureactor:type=GpuReactor,name=<name>}); on by default, unregistered on close.
     *
     * @param on whether to register the bean
     * @return this builder
     */
    public GpuReactor.Builder jmx(boolean on) { this.jmx = on; return self(); }

    /**
     * Where the parkers' deadline sleeps go under {@link ExecutorKind#IO_URING}: a factory called
     * once on each parker thread, e.g. {@code UringSleeper::open}. Without one, io-uring falls
     * back to gpu-reactor with a coded warning.
     *
     * @param factory makes one sleeper per parker thread, on that thread
     * @return this builder
     */
    public GpuReactor.Builder deadlineSleeper(Supplier<Sleeper> factory) {
        this.deadlineSleeper = Objects.requireNonNull(factory, "factory");
        return self();
    }

    /**
     * The executor kind to run; {@link ExecutorKind#GPU_REACTOR} by default. One that cannot run
     * here resolves by {@link #strictness(Strictness)}.
     *
     * @param kind the kind requested
     * @return this builder
     */
    public GpuReactor.Builder kind(ExecutorKind kind) { this.kind = Objects.requireNonNull(kind, "kind"); return self(); }

    /**
     * Where the reactor's virtual threads run; {@link Scheduler#CARRIER_POOL} by default. One that
     * cannot run here resolves by {@link #strictness(Strictness)}.
     *
     * @param scheduler the scheduler requested
     * @return this builder
     */
    public GpuReactor.Builder scheduler(Scheduler scheduler) { this.scheduler = Objects.requireNonNull(scheduler, "scheduler"); return self(); }

    /**
     * What happens when the requested kind or scheduler cannot run here: a declared fallback with a
     * coded warning ({@link Strictness#FALLBACK}, the default) or a refusal ({@link Strictness#STRICT}).
     *
     * @param s the strictness
     * @return this builder
     */
    public GpuReactor.Builder strictness(Strictness s) { this.strictness = Objects.requireNonNull(s, "strictness"); return self(); }

    /**
     * The wait plan of every wait; by default
     * {@code flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8}.
     *
     * @param plan the plan
     * @return this builder
     */
    public GpuReactor.Builder plan(WaitPlan plan) { this.plan = Objects.requireNonNull(plan, "plan"); return self(); }

    /**
     * {@link #plan(WaitPlan)} from its text form.
     *
     * @param text a plan in the grammar of {@link WaitPlan} (else a coded {@link ErrorCode#InvalidPlan})
     * @return this builder
     */
    public GpuReactor.Builder plan(String text) { return plan(WaitPlan.parse(Objects.requireNonNull(text, "text"))); }

    /**
     * How many carriers the carrier pool keeps; {@link GpuReactor#defaultCarriers()} by default.
     *
     * @param n 1 to 4096 (else a coded {@link ErrorCode#InvalidArgument})
     * @return this builder
     */
    public GpuReactor.Builder carriers(int n) {
        this.carriers = SchedulerProperties.checkedParallelism(n);
        return self();
    }

    /**
     * How long a parker spins on its line before sleeping in parkNanos slices, when there is no
     * hardware park; from 0 (no spin) up to {@link Durations#MAX}, else a coded {@link ErrorCode#InvalidArgument}.
     *
     * @param d the spin; 200 µs by default
     * @return this builder
     */
    public GpuReactor.Builder parkSpin(Duration d) { this.parkSpinNanos = Durations.nonNegativeNanos("parkSpin", d); return self(); }

    /**
     * How long a parker sleeps in the OS between two looks at its lines' words under the pure-Java
     * park (no hardware word wait, or several busy lines): the trade between how late a store is
     * seen (about half a slice) and the CPU of waking up (one OS wake per slice while a wait is
     * due). 100 µs by default, where carriers also look between their tasks ({@link #carrierTurns});
     * a service that counts wake latency before CPU may choose 50–75 µs (docs/SERVICE.md measures
     * them). A slice never outlasts the park's bound, the plan's
     * {@code park_us} (100 µs by default) or the next backstop, whichever comes first: a longer
     * slice needs a plan with a longer {@code park_us}, and a slice chosen past it is warned at the
     * build ({@link dev.gpureactor.core.ErrorCode#InvalidArgument}, as a warning). Between {@value #MIN_PARK_SLICE_NANOS} ns
     * and {@value #MAX_PARK_SLICE_NANOS} ns: shorter is a spin made of system calls.
     *
     * @param d the slice
     * @return this builder
     */
    public GpuReactor.Builder parkSlice(Duration d) {
        this.parkSliceNanos = Durations.nanos("parkSlice", d, MIN_PARK_SLICE_NANOS, MAX_PARK_SLICE_NANOS, "between 1 µs and 10 ms");
        this.parkSliceChosen = true;
        return self();
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
    public GpuReactor.Builder hosting(boolean on) { this.hosting = on; return self(); }

    /**
     * Whether parkers use the host's hardware word wait (umwait, mwaitx, wfe) where the probe
     * found one (the default), or the pure-Java park even there: to compare the two on one host.
     *
     * @param on whether to use the hardware word wait where there is one
     * @return this builder
     */
    public GpuReactor.Builder hardwarePark(boolean on) { this.hardwarePark = on; return self(); }

    /**
     * Whether a carrier between two tasks may run the turn of a parker that sleeps out a polling park
     * once a word of its lines has moved: the carrier borrows the parker's loop for that one turn, and
     * the virtual thread the turn wakes runs next on that carrier, with no OS wake of the parker and no
     * hand-off. The parker takes its loop back after its slice, waiting out a lent turn, and handles
     * what the turn threw as its own. On by default, on the carrier pool under the pure-Java park (a
     * hardware word wait wakes on the store itself; the JDK's scheduler has no carriers of ours):
     * in docs/SERVICE.md it let the default slice grow to 100 µs at the same median wake, for 3–14 %
     * less CPU per request at 16–512 clients. Off, only the parkers look at the words.
     *
     * @param on whether carriers take parked parkers' turns
     * @return this builder
     */
    public GpuReactor.Builder carrierTurns(boolean on) { this.carrierTurns = on; return self(); }

    /**
     * How many lines one parker thread watches at most. A line is given a parker at its first
     * registration, the live one with the fewest lines below {@code n}, else a new one, and keeps
     * it for its life; a parker leaves when its last line closes. 1 is one parker per line. By
     * default {@value GpuReactor#HARDWARE_LINES_PER_PARKER} where the parkers use a hardware word wait
     * (a monitor arms one line) and {@value GpuReactor#FALLBACK_LINES_PER_PARKER} with the pure-Java park,
     * whose slices poll all the lines of a parker at the cost of one (docs/SCALE.md).
     *
     * @param n at least 1 (else a coded {@link ErrorCode#InvalidArgument})
     * @return this builder
     */
    public GpuReactor.Builder linesPerParker(int n) {
        if (n < 1) throw new ReactorException(ErrorCode.InvalidArgument, "linesPerParker", n, ">= 1");
        this.linesPerParker = n;
        return self();
    }

    /**
     * Host capabilities to resolve against, instead of probing (tests, simulations).
     *
     * @param caps the capabilities
     * @return this builder
     */
    public GpuReactor.Builder caps(HostCaps caps) { this.caps = Objects.requireNonNull(caps, "caps"); return self(); }

    /**
     * Where the reactor's coded warnings go, instead of the default. A warning raised on a user's thread
     * (building, closing, a joiner) reaches the sink on that thread as it is raised; one raised on the
     * reactor's own threads (a parker, a carrier's lent turn) reaches it in order on the reactor's
     * {@code gar-reporter-<name>} thread, so a sink that blocks holds no parker and no wait, and up to 1,024
     * wait for a slow sink; {@link GpuReactor#close()} waits up to a second for those
     * raised before it. The default: the {@code System.Logger} named {@code "dev.gpureactor"},
     * once per {@link ErrorCode} per reactor (at {@code WARNING}; {@link ErrorCode#ParkFallback} at
     * {@code DEBUG}, or {@code INFO} where enabling native access would turn the hardware park on), so that the JDK-scheduler fallback
     * reaches the log of a run without flags. Either way every warning is also counted
     * ({@link GpuReactor#warningsRaised()}) and kept ({@link GpuReactor#warnings()}, the MXBean).
     * What the sink throws, and what it missed being slow, stays with it: counted in
     * {@link GpuReactor#warningSinkFailures()}, never failing a wait or a close.
     *
     * @param sink receives each warning as it is raised
     * @return this builder
     */
    public GpuReactor.Builder warnings(Consumer<Warning> sink) { this.warningSink = Objects.requireNonNull(sink, "sink"); return self(); }

    private GpuReactor.Builder self() { return (GpuReactor.Builder) this; }
}
