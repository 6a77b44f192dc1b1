package dev.gpureactor.bench.service;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * One cell's fates ({@link Fate}): plays a fated request's fate against its wait, checks that the
 * outcome is the one the contract promises, and counts. The contract, for the library's
 * {@code GpuFuture} and the watcher's {@code CompletableFuture} alike (a {@code Future} as
 * {@code FutureTask} is one):
 * <ul>
 *   <li>a timed-out {@code get} throws {@code TimeoutException} and ends only that caller's wait: the
 *       future is neither cancelled nor failed, and completes later with the payload;
 *   <li>a {@code cancel} that finds the wait pending answers {@code true} and settles it CANCELLED, and
 *       the waiting handler's {@code get} throws {@code CancellationException}; a cancel after the store
 *       answers {@code false} and changes nothing; a second cancel answers {@code false} where the wait
 *       promises {@code FutureTask}'s answer (the library's and sleep polling's; a {@code CompletableFuture}'s
 *       cancel answers whether it is cancelled, so the watcher's second cancel says {@code true});
 *   <li>an interrupted {@code get} throws {@code InterruptedException} with the flag cleared and ends only
 *       that caller's wait, as a timeout does.
 * </ul>
 * A fate whose store came first (the handler got its payload before the timeout, the cancel or the
 * interrupt) is answered with the payload and counted {@code beaten}. Each breach of the contract
 * counts as a wrong answer (in the {@link Ledger}), and the first one is kept to be reported.
 *
 * <p>The client side's cancel and interrupt run on a task of the mode's own executor, {@link
 * Fate#ACT_AFTER_NANOS} into the wait, as a server's own thread would act on a client that went
 * away. The interrupt takes a handshake with the handler so that it lands only while the handler
 * waits for this request: a late interrupt is withdrawn, or cleared before the handler answers
 * (an interrupt during the answer's write would close the connection).
 */
final class Fates {
    private static final int JOINING = 0, INTERRUPTING = 1, INTERRUPTED = 2, ANSWERED = 3;

    private final boolean on;
    private final Ledger ledger;
    private final LongAdder timedOut = new LongAdder(), cancelled = new LongAdder(), interrupted = new LongAdder(),
            beaten = new LongAdder(), completedLater = new LongAdder(), violations = new LongAdder();
    private final AtomicReference<String> firstViolation = new AtomicReference<>();
    private final ConcurrentLinkedQueue<Left> left = new ConcurrentLinkedQueue<>();
    private final AtomicLong actors = new AtomicLong();

    /** A wait a timeout or an interrupt left pending: it must complete later with request {@code id}'s payload. */
    private record Left(long id, Future<Long> future) {}

    /**
     * What a played fate gave the handler.
     *
     * @param met     the fate met, or {@link Fate#NONE} when the store came first
     * @param payload the payload read after the wait (when {@code met} is {@link Fate#NONE})
     */
    record Played(Fate met, long payload) {}

    Fates(boolean on, Ledger ledger) {
        this.on = on;
        this.ledger = ledger;
    }

    /** Request {@code id}'s fate in this cell. */
    Fate of(long id) { return Fate.of(id, on); }

    /** Begins {@code job}'s wait in {@code waiting}'s way and plays {@code fate} (not {@link Fate#NONE}) on it. */
    Played play(Fate fate, Waiting waiting, Job job) throws Exception {
        return play(fate, waiting.begin(job), job, waiting.executor(), waiting.cancelAnswersOnce());
    }

    /**
     * Plays {@code fate} on the wait {@code f} for {@code job}; the client side acts on a task of
     * {@code executor}; {@code cancelAnswersOnce}: only the cancel that cancelled the wait may answer true.
     */
    Played play(Fate fate, Future<Long> f, Job job, ExecutorService executor, boolean cancelAnswersOnce) throws Exception {
        return switch (fate) {
            case NONE -> throw new IllegalArgumentException("no fate to play for request " + job.id);
            case TIMEOUT -> timeout(f, job);
            case CANCEL -> cancel(f, executor, cancelAnswersOnce);
            case INTERRUPT -> interrupt(f, job, executor);
        };
    }

    private Played timeout(Future<Long> f, Job job) throws Exception {
        try {
            return beaten(f.get(Fate.TIMEOUT_NANOS, TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            leftPending(f, job, "a timed-out get");
            timedOut.increment();
            return new Played(Fate.TIMEOUT, 0);
        }
    }

    private Played cancel(Future<Long> f, ExecutorService executor, boolean answersOnce) throws Exception {
        act(executor, () -> {
            boolean won = f.cancel(false);
            if (won != f.isCancelled()) violation("cancel answered " + won + " on a wait whose isCancelled() is " + !won);
            if (answersOnce && f.cancel(false)) violation("a second cancel answered true");
        });
        try {
            return beaten(f.get());
        } catch (CancellationException e) {
            Future.State s = f.state();
            if (s != Future.State.CANCELLED) violation("a wait whose get threw CancellationException is " + s);
            cancelled.increment();
            return new Played(Fate.CANCEL, 0);
        }
    }

    private Played interrupt(Future<Long> f, Job job, ExecutorService executor) throws Exception {
        Thread handler = Thread.currentThread();
        AtomicInteger handshake = new AtomicInteger(JOINING);
        act(executor, () -> {
            if (handshake.compareAndSet(JOINING, INTERRUPTING)) {
                handler.interrupt();
                handshake.set(INTERRUPTED);
            }
        });
        try {
            long payload = f.get();
            answering(handshake);
            return beaten(payload);
        } catch (InterruptedException e) {
            if (Thread.currentThread().isInterrupted()) violation("an interrupted get threw with the interrupt flag still set");
            answering(handshake);
            leftPending(f, job, "an interrupted get");
            interrupted.increment();
            return new Played(Fate.INTERRUPT, 0);
        }
    }

    /** The handler stops taking the interrupt; one already on its way is waited for and cleared. */
    private static void answering(AtomicInteger handshake) {
        if (handshake.compareAndSet(JOINING, ANSWERED)) return;
        while (handshake.get() != INTERRUPTED) Thread.onSpinWait(); // the interrupter is between its CAS and its store
        Thread.interrupted();
    }

    private Played beaten(long payload) {
        beaten.increment();
        return new Played(Fate.NONE, payload);
    }

    /** After a caller's timeout or interrupt the wait must be as it was: pending, or completed since. */
    private void leftPending(Future<Long> f, Job job, String by) {
        Future.State s = f.state();
        if (s == Future.State.CANCELLED || s == Future.State.FAILED) violation(by + " left the wait " + s + ", not pending");
        left.add(new Left(job.id, f));
    }

    /** Runs {@code action} on a task of {@code executor} {@link Fate#ACT_AFTER_NANOS} from now. */
    private void act(ExecutorService executor, Runnable action) {
        actors.incrementAndGet();
        try {
            executor.execute(() -> {
                try {
                    Thread.sleep(Duration.ofNanos(Fate.ACT_AFTER_NANOS));
                    action.run();
                } catch (InterruptedException e) {
                    violation("the client side's task was interrupted");
                } finally {
                    actors.decrementAndGet();
                }
            });
        } catch (RuntimeException e) {
            actors.decrementAndGet();
            throw e;
        }
    }

    private void violation(String what) {
        violations.increment();
        ledger.wrong.increment();
        firstViolation.compareAndSet(null, what);
    }

    /**
     * Once every client has stopped: waits (within {@code limit}) for the client side's tasks, then
     * for every wait a timeout or an interrupt left pending, each of which must complete with its
     * request's payload.
     */
    void settle(Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (actors.get() > 0 && System.nanoTime() - end < 0) Thread.sleep(1);
        if (actors.get() > 0) violation(actors.get() + " client-side cancels or interrupts had not run " + limit.toMillis() + " ms after the clients stopped");
        for (Left l; (l = left.poll()) != null; ) {
            try {
                long payload = l.future().get(Math.max(end - System.nanoTime(), TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
                if (payload == Job.expected(l.id())) completedLater.increment();
                else violation("request " + l.id() + "'s wait, left pending, completed with a wrong payload");
            } catch (TimeoutException e) {
                violation("request " + l.id() + "'s wait, left pending by a timeout or interrupt, had not completed");
            } catch (ExecutionException | CancellationException e) {
                violation("request " + l.id() + "'s wait, left pending by a timeout or interrupt, ended with " + e);
            }
        }
    }

    /** The counts, once settled; {@code issued}: the cell's request ids {@code 0..issued-1}. */
    Counts count(long issued) {
        long fated = 0;
        for (long id = 0; id < issued; id++) if (of(id) != Fate.NONE) fated++;
        return new Counts(fated, timedOut.sum(), cancelled.sum(), interrupted.sum(), beaten.sum(), completedLater.sum(), violations.sum(),
                firstViolation.get() == null ? "" : firstViolation.get());
    }

    /**
     * One cell's fates, or several cells' summed.
     *
     * @param fated          issued requests that had a fate
     * @param timedOut       handlers whose get timed out (answered {@code timeout})
     * @param cancelled      waits the client side cancelled (answered {@code cancelled})
     * @param interrupted    handlers interrupted in their get (answered {@code interrupted})
     * @param beaten         fated requests whose store came first (answered with the payload)
     * @param completedLater waits a timeout or interrupt left pending that later completed with the right payload
     * @param violations     breaches of the contract (each also a wrong answer)
     * @param firstViolation the first breach, in words; empty when none
     */
    record Counts(long fated, long timedOut, long cancelled, long interrupted, long beaten, long completedLater, long violations,
                  String firstViolation) {
        static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0, 0, "");

        Counts plus(Counts o) {
            return new Counts(fated + o.fated, timedOut + o.timedOut, cancelled + o.cancelled, interrupted + o.interrupted, beaten + o.beaten,
                    completedLater + o.completedLater, violations + o.violations, firstViolation.isEmpty() ? o.firstViolation : firstViolation);
        }
    }
}
