package dev.gpureactor.bench;

import dev.gpureactor.bench.service.ThreadCpu;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.loom.Scheduler;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One strategy waiting, over and over, for stores of one {@link BenchDevice} that come a fixed time
 * after each wait starts: the measurement core of {@code gar bench} and of the JMH benchmarks.
 *
 * <p><b>The loop</b> (on the strategy's own waiter thread, from {@link #open} to {@link #close}):
 * note the start; arm the wait for sequence number {@code seq} (a reactor registers its future
 * here, before the store can happen); ask the device to store {@code seq} at start + wait; wait as
 * the strategy waits; on running again, record now − the device's store time. The device request
 * costs every strategy the same one unpark.
 *
 * <p><b>Measuring.</b> The loop always runs; {@link #startMeasuring} opens a window (fresh
 * histogram, CPU snapshot of every platform thread but the device's and the caller's) and
 * {@link #stopMeasuring} closes it into a {@link Cell}. The waiter is the only writer of the
 * histogram recorder and the counters; the harness reads them through the recorder's interval
 * swap and volatile reads.
 */
public final class WakeRig implements AutoCloseable {
    /** The strategies' one wait: arm for {@code seq}, then await it. */
    @FunctionalInterface
    private interface Arm {
        Pending arm(long seq);
    }

    @FunctionalInterface
    private interface Pending {
        void await() throws Exception;
    }

    private final Strategy strategy;
    private final long waitNanos;
    private final long jitterNanos;
    private final BenchDevice device;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Recorder recorder = new Recorder(3);
    private final CountDownLatch exited = new CountDownLatch(1);
    private final String note;
    private Arm arm;
    private Thread waiter;

    private volatile boolean stopping;
    private volatile Throwable failure;
    private volatile long waits;
    private volatile long waitSumNanos;
    private volatile long notifyAt = Long.MAX_VALUE;
    private volatile Thread harness;

    private Set<Long> excluded;
    private ThreadCpu cpuAtStart;
    private long waitsAtStart;
    private long waitSumAtStart;

    private WakeRig(Strategy strategy, long waitNanos, Knobs knobs, Jitter jitter, DeviceTiming timing) {
        this.strategy = strategy;
        this.waitNanos = waitNanos;
        this.jitterNanos = jitter.widthNanos(strategy, waitNanos);
        Object monitor = new Object();
        this.device = new BenchDevice(timing, strategy == Strategy.CPU_NOTIFY ? () -> {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        } : null);
        resources.add(device);
        String n = "";
        switch (strategy) {
            case REACTOR, REACTOR_HANDOFF, REACTOR_FLAG, REACTOR_POLL, REACTOR_JDK -> {
                GpuReactor r = reactor(strategy, knobs);
                resources.addFirst(r);
                n = r.schedulerResolution().running() == (strategy == Strategy.REACTOR_JDK ? Scheduler.JDK_DEFAULT : Scheduler.CARRIER_POOL)
                        ? "" : "scheduler " + r.schedulerResolution().label();
                arm = seq -> {
                    MemoryDescriptor d = device.descriptor(seq);
                    GpuFuture<Void> f = r.await(d, new BenchDevice.WordPort(d));
                    return f::join;
                };
                waiter = r.threadFactory().newThread(this::loop);
            }
            case BUSY_SPIN -> arm = seq -> () -> {
                while (!device.reached(seq)) Thread.onSpinWait();
            };
            case PARK_POLL -> arm = seq -> () -> {
                while (!device.reached(seq)) LockSupport.parkNanos(50_000);
            };
            case SLEEP_POLL -> arm = seq -> () -> {
                while (!device.reached(seq)) Thread.sleep(1);
            };
            case CF_WATCHER -> {
                Watcher w = new Watcher(device);
                resources.addFirst(w);
                arm = seq -> {
                    CompletableFuture<Void> cf = new CompletableFuture<>();
                    w.current.set(new Watch(seq, cf));
                    return cf::join;
                };
            }
            case CPU_NOTIFY -> arm = seq -> () -> {
                synchronized (monitor) {
                    while (!device.reached(seq)) monitor.wait();
                }
            };
        }
        this.note = n;
        if (waiter == null) {
            waiter = switch (strategy.waiter()) {
                case PLATFORM -> Thread.ofPlatform().name("gar-bench-waiter").daemon(true).unstarted(this::loop);
                case DEFAULT_VT, CARRIER_VT -> Thread.ofVirtual().name("gar-bench-waiter").unstarted(this::loop);
            };
        }
    }

    /**
     * Starts {@code strategy} waiting for stores {@code wait} after each wait's start (give or take
     * the {@link Jitter} it gets, the pollers' by default, and the device's {@link DeviceTiming}).
     */
    public static WakeRig open(Strategy strategy, Duration wait, Knobs knobs, Jitter jitter, DeviceTiming timing) {
        if (wait.isNegative() || wait.isZero()) throw new IllegalArgumentException("wait must be positive: " + wait);
        WakeRig rig = new WakeRig(strategy, wait.toNanos(), knobs, jitter, timing);
        rig.waiter.start();
        return rig;
    }

    private static GpuReactor reactor(Strategy s, Knobs knobs) {
        GpuReactor.Builder b = GpuReactor.builder();
        knobs.parkSpinNanos().ifPresent(v -> b.parkSpin(Duration.ofNanos(v)));
        knobs.carriers().ifPresent(b::carriers);
        knobs.parkSliceNanos().ifPresent(v -> b.parkSlice(Duration.ofNanos(v)));
        knobs.carrierTurns().ifPresent(b::carrierTurns);
        switch (s) {
            case REACTOR_FLAG -> b.plan(WaitPlan.recommended());
            case REACTOR_POLL -> b.plan(WaitPlan.parse("poll"));
            default -> {
                if (knobs.marginMicros().isPresent()) b.plan(knobs.defaultPlan()); // else the builder's own default
            }
        }
        if (s == Strategy.REACTOR_JDK) b.scheduler(Scheduler.JDK_DEFAULT);
        if (s == Strategy.REACTOR_HANDOFF) b.hosting(false);
        return b.build();
    }

    private void loop() {
        try {
            for (long seq = 1; !stopping; seq++) {
                long wait = jitterNanos == 0 ? waitNanos
                        : waitNanos - jitterNanos / 2 + ThreadLocalRandom.current().nextLong(jitterNanos);
                long start = System.nanoTime();
                Pending p = arm.arm(seq);
                device.request(seq, start + wait);
                p.await();
                long woke = System.nanoTime();
                long stored = device.storedAt();
                recorder.recordValue(Math.max(0, woke - stored));
                waitSumNanos = waitSumNanos + (stored - start); // single writer
                long w = waits + 1;
                waits = w;
                if (w >= notifyAt) {
                    Thread h = harness;
                    if (h != null) LockSupport.unpark(h);
                }
            }
        } catch (Throwable t) {
            failure = t;
            Thread h = harness;
            if (h != null) LockSupport.unpark(h);
        } finally {
            exited.countDown();
        }
    }

    public Strategy strategy() { return strategy; }

    public long waitNanos() { return waitNanos; }

    /** The full width of this rig's uniform wait jitter (0: steady waits). */
    public long jitterNanos() { return jitterNanos; }

    /** Waits completed since the rig opened. */
    public long waits() { return waits; }

    /** Waits completed since {@link #startMeasuring}. */
    public long measuredWaits() { return waits - waitsAtStart; }

    /** Opens a measuring window: latencies and CPU from now on. The calling thread's CPU is not counted. */
    public void startMeasuring() {
        check();
        recorder.getIntervalHistogram(); // drop what came before
        waitsAtStart = waits;
        waitSumAtStart = waitSumNanos;
        excluded = Set.of(device.thread().threadId(), Thread.currentThread().threadId());
        cpuAtStart = ThreadCpu.take(excluded);
    }

    /** Closes the window opened by {@link #startMeasuring} into a {@link Cell}; the rig keeps running. */
    public Cell stopMeasuring() {
        return stopWindow().toCell();
    }

    /** Closes the window opened by {@link #startMeasuring}, in raw form (to add to other rounds' windows). */
    public Window stopWindow() {
        check();
        if (cpuAtStart == null) throw new IllegalStateException("startMeasuring was not called");
        ThreadCpu end = ThreadCpu.take(excluded);
        Histogram h = recorder.getIntervalHistogram();
        long sum = waitSumNanos - waitSumAtStart;
        return new Window(strategy, waitNanos, h, sum, end.wallNanos() - cpuAtStart.wallNanos(), end.nanosByGroupSince(cpuAtStart),
                noteWithJitter());
    }

    private String noteWithJitter() {
        if (jitterNanos == 0) return note;
        String j = "waits jittered +-" + Goals.waitText(jitterNanos / 2);
        return note.isEmpty() ? j : note + "; " + j;
    }

    /** Blocks until {@code n} more waits have completed (or the waiter failed, or {@code timeout} passed). */
    public void awaitWaits(long n, Duration timeout) throws InterruptedException {
        long target = waits + n;
        long end = System.nanoTime() + timeout.toNanos();
        harness = Thread.currentThread();
        notifyAt = target;
        try {
            while (waits < target) {
                check();
                long left = end - System.nanoTime();
                if (left <= 0) throw new IllegalStateException(strategy.id() + ": " + n + " waits did not complete in " + timeout);
                LockSupport.parkNanos(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
                if (Thread.interrupted()) throw new InterruptedException();
            }
        } finally {
            notifyAt = Long.MAX_VALUE;
            harness = null;
        }
    }

    private void check() {
        Throwable t = failure;
        if (t != null) throw new IllegalStateException(strategy.id() + " waiter failed: " + t, t);
    }

    /** Lets the current wait finish, stops the waiter, and frees the reactor, watcher and device. */
    @Override
    public void close() {
        stopping = true;
        try {
            if (!exited.await(waitNanos / 1_000_000 + 5_000, TimeUnit.MILLISECONDS)) {
                waiter.interrupt();
                exited.await(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                if (failure == null) failure = e;
            }
        }
    }

    private record Watch(long seq, CompletableFuture<Void> future) {}

    /** The CompletableFuture baseline's watcher: a platform thread that polls every 50 µs, whether or not anyone waits. */
    private static final class Watcher implements AutoCloseable {
        final AtomicReference<Watch> current = new AtomicReference<>();
        private final Thread thread;
        private volatile boolean closed;

        Watcher(BenchDevice device) {
            thread = Thread.ofPlatform().name("gar-bench-watcher").daemon(true).start(() -> {
                while (!closed) {
                    Watch w = current.get();
                    if (w != null && device.reached(w.seq()) && current.compareAndSet(w, null)) w.future().complete(null);
                    LockSupport.parkNanos(50_000);
                }
            });
        }

        @Override
        public void close() {
            closed = true;
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
