package dev.gpureactor.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The ways of waiting that the wake benchmarks compare. Each one waits, on its own thread, for the
 * {@link BenchDevice} to store a sequence number into a completion line; {@link WakeRig} runs them.
 *
 * <p>The reactor strategies differ only in plan or scheduler: {@link #REACTOR} is the library as
 * {@code GpuReactor.open()} builds it (the default plan, {@code flag + predict}, on the carrier
 * pool) and is the one the goals judge. The others are the baselines; none is tuned down.
 */
public enum Strategy {
    REACTOR("reactor", "gpu-reactor flag+predict (default)", Waiter.CARRIER_VT,
            "GpuReactor defaults: parker thread, default plan, virtual thread on the carrier pool, hosted by the parker when it can be"),
    REACTOR_HANDOFF("reactor-handoff", "gpu-reactor handoff (hosting off)", Waiter.CARRIER_VT,
            "the default with Builder.hosting(false): the parker hands every woken virtual thread to a carrier"),
    REACTOR_FLAG("reactor-flag", "gpu-reactor flag (no predict)", Waiter.CARRIER_VT,
            "plan flag:park_us=100,backstop_us=1000 (WaitPlan.recommended()), no deadline sleep"),
    REACTOR_POLL("reactor-poll", "gpu-reactor poll", Waiter.CARRIER_VT,
            "plan poll: the joining virtual thread queries the port in a loop on its carrier"),
    REACTOR_JDK("reactor-jdk", "gpu-reactor on JDK scheduler", Waiter.DEFAULT_VT,
            "default plan and parker, virtual thread on the JDK's default scheduler: the handoff the carrier pool must beat"),
    BUSY_SPIN("busy-spin", "busy spin (platform thread)", Waiter.PLATFORM,
            "a platform thread spinning on the word: the latency floor, one core per waiter"),
    PARK_POLL("park-poll", "parkNanos(50us) poll (VT)", Waiter.DEFAULT_VT,
            "virtual thread: while (!done) LockSupport.parkNanos(50 us)"),
    SLEEP_POLL("sleep-poll", "Thread.sleep(1) poll (VT)", Waiter.DEFAULT_VT,
            "virtual thread: while (!done) Thread.sleep(1)"),
    CF_WATCHER("cf-watcher", "CompletableFuture + watcher", Waiter.DEFAULT_VT,
            "a platform watcher polls the word every parkNanos(50 us) and completes a CompletableFuture the virtual thread joins"),
    CPU_NOTIFY("cpu-notify", "blocking-sync (CPU notify)", Waiter.PLATFORM,
            "platform thread in Object.wait, notified by the device thread after its store: a CPU agent can do this, a GPU store"
                    + " wakes nothing, so a real blocking-sync driver path adds its interrupt latency");

    /** Where a strategy's waiting code runs. */
    public enum Waiter { PLATFORM, CARRIER_VT, DEFAULT_VT }

    private final String id;
    private final String label;
    private final Waiter waiter;
    private final String description;

    Strategy(String id, String label, Waiter waiter, String description) {
        this.id = id;
        this.label = label;
        this.waiter = waiter;
        this.description = description;
    }

    /** The short name used on the command line, in JSON and as the JMH parameter. */
    public String id() { return id; }

    /** The name printed in tables and on the plot. */
    public String label() { return label; }

    public Waiter waiter() { return waiter; }

    public String description() { return description; }

    public boolean isReactor() {
        return this == REACTOR || this == REACTOR_HANDOFF || this == REACTOR_FLAG || this == REACTOR_POLL || this == REACTOR_JDK;
    }

    /** The strategy named {@code id}, or an {@link IllegalArgumentException} listing the names. */
    public static Strategy of(String id) {
        String want = id.trim().toLowerCase(Locale.ROOT);
        for (Strategy s : values()) if (s.id.equals(want)) return s;
        throw new IllegalArgumentException("unknown strategy \"" + id + "\"; known: "
                + Arrays.stream(values()).map(Strategy::id).collect(Collectors.joining(", ")));
    }
}
