package dev.gpureactor.soak;

import dev.gpureactor.loom.CarrierView;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.loom.GpuExecutorService;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The soak's close phase: {@code reactor.close()} under load, then the lifecycle
 * invariants. One reactor, one simulated device with {@link #STREAMS} streams. Half the streams are
 * held shut by a gate that opens only after the close, so their waits are in flight when the reactor
 * closes; the other half run short kernels, so waits complete before, during and after the close.
 * Every wait gets one joiner of a way drawn from the seed: a virtual thread of the reactor's pool
 * ({@code join}), a task of the reactor's executor ({@code get}), a stage callback
 * ({@code toCompletableFuture().whenComplete}) or a completion callback ({@code onComplete}). A
 * joiner that answered sleeps a moment more (a timed park: its resume arrives after the close, and
 * must not be rejected).
 *
 * <p>Invariants: every joiner answered, with its wait's value or a coded {@code ShutDown} and
 * nothing else; the pool's live virtual threads reach 0 and its carriers leave; the executor
 * terminates. The third lifecycle invariant, that the JVM then exits by itself, needs a JVM of its
 * own: {@code SoakCloseUnderLoadTest} runs this phase in a child JVM. All bounds are hang guards.
 */
public final class ClosePhase {
    /** Streams of the phase's device; the even ones are held until after the close. */
    static final int STREAMS = 8;
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private static final int SAMPLES = 10;

    /** How a joiner waits for its wait. */
    enum Way { VIRTUAL_JOIN, EXECUTOR_GET, STAGE, ON_COMPLETE }

    /**
     * What the close phase saw.
     *
     * @param waits              waits registered before the close
     * @param inFlightAtClose    waits still unsettled when close was called
     * @param values             joiners answered with their wait's value
     * @param shutDown           joiners answered with a coded ShutDown
     * @param wrong              joiners answered with anything else (a wrong value, another error)
     * @param unanswered         joiners with no answer within the hang guard
     * @param closeNanos         how long {@code reactor.close()} took
     * @param liveThreads        the pool's live virtual threads after the carriers left (must be 0)
     * @param carriersLeft       every carrier thread ended within the hang guard
     * @param executorTerminated the reactor's executor reported shutdown and terminated
     * @param samples            what went wrong, a few of each
     */
    public record Result(long waits, long inFlightAtClose, long values, long shutDown, long wrong, long unanswered,
                         long closeNanos, int liveThreads, boolean carriersLeft, boolean executorTerminated,
                         List<String> samples) {
        public Result {
            samples = List.copyOf(samples);
        }

        /** Every lifecycle invariant this JVM can judge held. */
        public boolean ok() {
            return wrong == 0 && unanswered == 0 && liveThreads == 0 && carriersLeft && executorTerminated && values + shutDown == waits;
        }

        /** One line: what was in flight and how each joiner was answered. */
        public String detail() {
            return "%d waits (%d in flight at close): %d values, %d ShutDown, %d wrong, %d unanswered; close %.1f ms; live threads %d; carriers left %b; executor terminated %b%s"
                    .formatted(waits, inFlightAtClose, values, shutDown, wrong, unanswered, closeNanos / 1e6, liveThreads,
                            carriersLeft, executorTerminated, samples.isEmpty() ? "" : "; " + String.join("; ", samples));
        }
    }

    private final LongAdder values = new LongAdder(), shutDown = new LongAdder(), wrong = new LongAdder();
    private final List<String> samples = new CopyOnWriteArrayList<>();

    private ClosePhase() {}

    /**
     * Runs the close phase: {@code waits} waits with their joiners, the close once a fifth of the
     * free streams' waits answered, then the checks.
     */
    public static Result run(int waits, int carriers, long seed) {
        if (waits < STREAMS) throw new ReactorException(ErrorCode.InvalidArgument, "close waits", waits, ">= " + STREAMS);
        try {
            return new ClosePhase().go(waits, carriers, seed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReactorException(ErrorCode.Interrupted, "soak close phase");
        }
    }

    private Result go(int waits, int carriers, long seed) throws InterruptedException {
        Random rnd = new Random(seed);
        outcome(null, null); // its lambda's class, loaded here rather than in the first callbacks, concurrently
        GpuReactor reactor = GpuReactor.builder().carriers(carriers).build();
        CarrierView pool = reactor.carriers().orElseThrow();
        GpuExecutorService exec = reactor.newExecutor();
        CountDownLatch afterClose = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(waits);
        List<GpuFuture<Long>> futures = new ArrayList<>(waits);
        long inFlight, closeNanos;
        try (SimDevice device = SimDevice.open()) {
            List<SimStream> streams = new ArrayList<>(STREAMS);
            for (int s = 0; s < STREAMS; s++) {
                SimStream stream = device.stream();
                if (s % 2 == 0) stream.hold(afterClose); // every wait behind this gate is in flight at the close
                streams.add(stream);
            }
            for (int i = 0; i < waits; i++) {
                SimStream stream = streams.get(i % STREAMS);
                long token = rnd.nextLong();
                stream.compute(Duration.ofNanos(rnd.nextInt(200_000)));
                SimStream.Signal sig = stream.signal();
                GpuFuture<Long> f = reactor.await(sig.descriptor(), sig.port(), () -> token);
                futures.add(f);
                Way way = Way.values()[rnd.nextInt(Way.values().length)];
                Runnable onAnswer = answered::countDown;
                // Every Answer is made here, on this platform thread: a lambda's class made for the first
                // time on a virtual thread or a callback is loaded there, and two of them loading it at once
                // pin on the class loader's monitor (JFR saw one such pin in a close phase).
                Answer joined = f::join, got = f::get;
                switch (way) {
                    case VIRTUAL_JOIN -> reactor.threadFactory().newThread(() -> {
                        answer(token, joined);
                        onAnswer.run();
                        sleepAfterAnswer();
                    }).start();
                    case EXECUTOR_GET -> exec.execute(() -> {
                        answer(token, got);
                        onAnswer.run();
                        sleepAfterAnswer();
                    });
                    case STAGE -> f.toCompletableFuture().whenComplete((v, e) -> {
                        answer(token, outcome(v, e));
                        onAnswer.run();
                    });
                    case ON_COMPLETE -> f.onComplete((v, e) -> {
                        answer(token, outcome(v, e));
                        onAnswer.run();
                    });
                }
            }
            // Close once the free streams are really answering (on a busy host they may start late).
            long until = System.nanoTime() + HANG_GUARD.toNanos();
            while (values.sum() < waits / 10 && System.nanoTime() - until < 0) Thread.sleep(1);
            inFlight = futures.stream().filter(f -> !f.isDone()).count();
            long t0 = System.nanoTime();
            reactor.close();
            closeNanos = System.nanoTime() - t0;
            afterClose.countDown(); // the held streams now store their words into a closed reactor's lines
            if (!answered.await(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)) sample(answered.getCount() + " joiners unanswered");
        }
        boolean carriersLeft = pool.awaitExit(HANG_GUARD);
        boolean terminated = exec.isShutdown() && exec.awaitTermination(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS);
        return new Result(waits, inFlight, values.sum(), shutDown.sum(), wrong.sum(), answered.getCount(), closeNanos,
                pool.liveThreads(), carriersLeft, terminated, samples);
    }

    /** A way of getting the answer that may throw what the future's joiners throw. */
    @FunctionalInterface
    private interface Answer {
        Long get() throws Throwable;
    }

    /** A callback's outcome as an Answer. */
    private static Answer outcome(Long v, Throwable e) {
        return () -> {
            if (e != null) throw e;
            return v;
        };
    }

    private void answer(long token, Answer a) {
        try {
            Long v = a.get();
            if (v != null && v == token) values.increment();
            else {
                wrong.increment();
                sample("value " + v + ", expected " + token);
            }
        } catch (Throwable t) {
            Throwable c = t;
            while ((c instanceof CompletionException || c instanceof ExecutionException || c instanceof CancellationException)
                    && c.getCause() != null) {
                c = c.getCause();
            }
            if (c instanceof ReactorException re && re.code() == ErrorCode.ShutDown) shutDown.increment();
            else {
                wrong.increment();
                sample("answered " + c);
            }
        }
    }

    /** A timed park after the answer: its resume may arrive after the close, and must run. */
    private static void sleepAfterAnswer() {
        try {
            Thread.sleep(Duration.ofNanos(100_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sample(String s) {
        if (samples.size() < SAMPLES) samples.add(s);
    }
}
