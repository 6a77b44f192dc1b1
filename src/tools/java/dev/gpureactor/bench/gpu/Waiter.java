package dev.gpureactor.bench.gpu;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The ways of waiting for the device's store that {@link WakeRun} compares, in one run. */
public enum Waiter {
    REACTOR_HARDWARE("reactor-hardware", true,
            "GpuReactor defaults: a parked virtual thread on the carrier pool; the parker waits on the line with the"
                    + " hardware word wait (umwait, mwaitx, wfe) where the probe found one, else the fallback"),
    REACTOR_FALLBACK("reactor-fallback", true,
            "the same with Builder.hardwarePark(false): the parker spins, then parks in parkNanos slices"),
    REACTOR_JDK("reactor-jdk", true,
            "the defaults with the virtual thread on the JDK's default scheduler (Scheduler.JDK_DEFAULT)"),
    STREAM_SYNCHRONIZE("cuStreamSynchronize", false,
            "a platform thread in cuStreamSynchronize; the primary context has CU_CTX_SCHED_BLOCKING_SYNC where the"
                    + " driver took it (blocking-sync: the driver's interrupt wakes the thread)"),
    STREAM_QUERY("cuStreamQuery-poll", false,
            "a platform thread calling cuStreamQuery in a loop until the stream is done (one core, no sleep)");

    private final String id;
    private final boolean reactor;
    private final String description;

    Waiter(String id, boolean reactor, String description) {
        this.id = id;
        this.reactor = reactor;
        this.description = description;
    }

    /** The name on the command line and in JSON. */
    public String id() { return id; }

    /** Whether this waiter is a virtual thread joining a {@code GpuFuture}. */
    public boolean isReactor() { return reactor; }

    public String description() { return description; }

    /** The waiter named {@code id}, or an {@link IllegalArgumentException} listing the names. */
    public static Waiter of(String id) {
        String want = id.trim().toLowerCase(Locale.ROOT);
        for (Waiter w : values()) if (w.id.toLowerCase(Locale.ROOT).equals(want)) return w;
        throw new IllegalArgumentException("unknown waiter \"" + id + "\"; known: "
                + Arrays.stream(values()).map(Waiter::id).collect(Collectors.joining(", ")));
    }
}
