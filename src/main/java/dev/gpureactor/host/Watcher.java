package dev.gpureactor.host;

import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.PortFault;
import dev.gpureactor.park.SlowQueries;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One background platform thread that watches many descriptors, on any lines, and completes a
 * {@link CompletableFuture} for each: the std host's watcher, for consumers that are not
 * latency-critical (it polls every {@code interval}, and queries each port every {@code backstop}).
 *
 * <p><b>Registrations.</b> Each {@link #watch} adds one registration, removed when it resolves, or
 * when the consumer drops it by completing or cancelling the returned future. The set is
 * concurrent; the watcher thread is the only one that resolves registrations.
 *
 * <p><b>Callbacks.</b> The watcher completes futures with no lock held, and dependent stages that
 * run synchronously on it are isolated: a stage that throws fails only its own future
 * ({@code CompletableFuture} catches it), and anything that escapes is caught and reported as a
 * warning, so a throwing callback never kills the watcher. Consumers that do real work should
 * attach it with an {@code ...Async} stage on their own executor.
 *
 * <p><b>Wake.</b> With nothing registered it parks indefinitely; {@link #watch} unparks it after
 * the registration is visible (a volatile add then unpark; the permit makes the order safe).
 *
 * <p><b>Watch against close.</b> {@code watch} checks {@code closed} and adds its registration
 * under {@code lock}; {@code close} sets {@code closed} under the same lock. So a registration is
 * either added before {@code closed} is set, and then the final drain (the watcher thread's, after
 * it read {@code closed}, and the closer's, after the join) sees it and fails it with
 * {@link ErrorCode#ShutDown}; or its {@code watch} sees {@code closed} and fails it at once. No
 * future is left pending by a close (jcstress WatchCloseStress; without the lock, a check-then-add
 * leaves some pending).
 *
 * <p><b>Faults.</b> Anything a port throws fails that registration only, with a coded
 * {@link ErrorCode#Backend} carrying it; the watcher goes on. A port that says done is
 * confirmed against the word (read again after the query), so a store that lands between the
 * watcher's word read and its query does not raise a false {@link ErrorCode#WordNeverWritten}.
 * A port whose query blocks holds every registration while it blocks: one that is the round's slowest
 * at 1 ms or more three backstop rounds in a row is warned {@link ErrorCode#SlowPort}, once.
 */
public final class Watcher implements AutoCloseable {
    private record Registration(MemoryDescriptor descriptor, CompletionPort port, CompletableFuture<Void> future) {}

    private final Set<Registration> registrations = ConcurrentHashMap.newKeySet();
    private final long intervalNanos;
    private final long backstopNanos;
    private final Consumer<Warning> warnings;
    /** The backstop rounds' slowest queries, watcher thread only: a port whose query blocks holds every registration. */
    private final SlowQueries slowQueries = new SlowQueries(1);
    private final Thread thread;
    /** Guards {@code closed} against a concurrent {@link #watch}'s check-then-add (see the class comment). */
    private final Object lock = new Object();
    /** Written under {@code lock}; volatile so the loop reads it without the lock. */
    private volatile boolean closed;
    /** What a negative control changes in this watcher ({@link Controls#NONE} for every watcher the library makes). */
    private final Controls controls;

    /**
     * The line of {@code watch}'s handshake that a jcstress negative control removes, given at the
     * watcher's construction. {@link #NONE}, every watcher the library makes, changes nothing.
     *
     * @param skipsClosedCheck {@code watch} adds without reading {@code closed} ({@code WatchCloseNegativeControl})
     */
    record Controls(boolean skipsClosedCheck) {
        /** Changes nothing. */
        static final Controls NONE = new Controls(false);
    }

    /**
     * A watcher with its own platform thread, started now.
     *
     * @param interval how often the watcher looks at the lines (e.g. 100 µs to 1 ms)
     * @param backstop how often it queries each port, the error authority
     * @param warnings where coded warnings go
     */
    public Watcher(Duration interval, Duration backstop, Consumer<Warning> warnings) {
        this(interval, backstop, warnings, Controls.NONE);
    }

    /** Tests: a watcher whose handshake line {@code controls} changes. */
    Watcher(Duration interval, Duration backstop, Consumer<Warning> warnings, Controls controls) {
        this.controls = Objects.requireNonNull(controls, "controls");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(backstop, "backstop");
        this.warnings = Objects.requireNonNull(warnings, "warnings");
        this.intervalNanos = Durations.positiveNanos("interval", interval);
        this.backstopNanos = Durations.nanos("backstop", backstop, intervalNanos, Long.MAX_VALUE,
                ">= interval (" + interval + ") and at most " + Durations.MAX);
        this.thread = Thread.ofPlatform().daemon(true).name("gar-watcher").start(this::loop);
    }

    /** {@return a watcher polling every 200 µs and querying every millisecond} */
    public static Watcher start() {
        return new Watcher(Duration.ofMillis(1).dividedBy(5), Duration.ofMillis(1), w -> { });
    }

    /**
     * {@return a future completed when {@code descriptor} is reached (with a {@code null} value), or failed with
     * the port's coded error} Cancelling or completing it drops the registration.
     *
     * @param descriptor the descriptor
     * @param port the port (the error authority)
     */
    public CompletableFuture<Void> watch(MemoryDescriptor descriptor, CompletionPort port) {
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(port, "port");
        CompletableFuture<Void> f = new CompletableFuture<>();
        Registration r = new Registration(descriptor, port, f);
        synchronized (lock) { // check-then-add, atomic against close's write of `closed`
            if (closed && !controls.skipsClosedCheck()) {
                f.completeExceptionally(new ReactorException(ErrorCode.ShutDown, "watcher"));
                return f;
            }
            registrations.add(r);
        }
        f.whenComplete((v, t) -> registrations.remove(r)); // resolved or dropped: the registration goes
        LockSupport.unpark(thread);
        return f;
    }

    /**
     * Registrations held now.
     *
     * @return the count
     */
    public int registrations() { return registrations.size(); }

    private void loop() {
        long lastQuery = System.nanoTime();
        List<Runnable> toRun = new ArrayList<>();
        while (!closed) {
            if (registrations.isEmpty()) {
                LockSupport.park(this);
                continue;
            }
            long now = System.nanoTime();
            boolean query = now - lastQuery >= backstopNanos;
            if (query) lastQuery = now;
            Registration slowest = null; // the round's slowest query, booked once per round (a port that blocks is slow in every one)
            long slowestNanos = -1;
            for (Registration r : registrations) {
                if (r.future.isDone()) continue; // dropped; its whenComplete removes it
                try {
                    if (r.descriptor.line().isClosed()) {
                        toRun.add(() -> r.future.completeExceptionally(new ReactorException(ErrorCode.LineClosed, r.descriptor.line().name(), "watch")));
                    } else if (r.descriptor.isComplete()) {
                        toRun.add(() -> r.future.complete(null));
                    } else if (query) {
                        long asked = System.nanoTime();
                        boolean done = r.port.query();
                        long took = System.nanoTime() - asked;
                        if (took > slowestNanos) {
                            slowest = r;
                            slowestNanos = took;
                        }
                        if (done) {
                            // Read the word again: a store that landed after the first read is no lost word.
                            if (r.port.storesIntoLine() && !r.descriptor.isComplete()) warn(Warning.of(ErrorCode.WordNeverWritten, r.descriptor));
                            toRun.add(() -> r.future.complete(null));
                        }
                    }
                } catch (ReactorException e) {
                    toRun.add(() -> r.future.completeExceptionally(e));
                } catch (Throwable e) { // any throwable from a port fails its registration, never the watcher
                    ReactorException coded = PortFault.coded("query", e); // now: a message that throws must not leave it pending
                    toRun.add(() -> r.future.completeExceptionally(coded));
                }
            }
            if (slowest != null) {
                Warning blocks = slowQueries.booked(0, slowestNanos, slowest.port, slowest.descriptor.line().name(), "watcher");
                if (blocks != null) warn(blocks);
            }
            for (Runnable c : toRun) {
                try {
                    c.run();
                } catch (Throwable t) { // a dependent stage run synchronously here threw past its future
                    warn(Warning.of(ErrorCode.Backend, "watcher", "callback", -1, t.getClass().getSimpleName(), PortFault.messageOf(t)));
                }
            }
            toRun.clear();
            if (!registrations.isEmpty()) LockSupport.parkNanos(this, intervalNanos);
        }
        failPending();
    }

    /** After {@code closed} was read true: fails every registration left (idempotent; the closer runs it too). */
    private void failPending() {
        for (Registration r : registrations) r.future.completeExceptionally(new ReactorException(ErrorCode.ShutDown, "watcher"));
    }

    /** A warning sink that throws must not stop the watcher. */
    private void warn(Warning w) {
        try {
            warnings.accept(w);
        } catch (Throwable ignored) {
            // the sink's own fault; the watch goes on
        }
    }

    /**
     * Stops the watcher; pending futures fail with {@link ErrorCode#ShutDown}, and a
     * {@link #watch} that comes after fails at once. The closer fails what is left itself too, so
     * none stays pending even if the watcher thread is stuck in a port. Called on the watcher thread
     * itself (a completion's callback), it does not wait for that thread, which leaves once it returns.
     */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        failPending();
    }
}
