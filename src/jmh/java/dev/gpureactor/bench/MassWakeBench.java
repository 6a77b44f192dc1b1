package dev.gpureactor.bench;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The many-waiters wake of {@code gar scale} in steady state: the time from the first store (or unpark) until
 * the last of {@code waiters} virtual threads runs again, one wake per iteration, after enough wakes that both
 * the reactor's path and the floor's are compiled (in a fresh JVM the reactor's 10,000-waiter wake reaches
 * its steady cost after about 8 wakes, the floor's after about 3: docs/SCALE.md). {@code gar scale} judges a
 * median of 7 wakes early in a JVM, and one run's ratio moves by 2×; this is for comparing two builds of the
 * wake path, many wakes in several forks each.
 *
 * <ul>
 *   <li>{@code reactor}: each thread awaits its own descriptor on one of 8 lines (slot {@code i mod 128},
 *       target {@code i / 128 + 1}, as {@code ManyFutures}) and joins it; the wake stores every slot's last
 *       target.
 *   <li>{@code pool-floor}: the same number of threads of the reactor's carrier pool in
 *       {@code LockSupport.park}, unparked by this thread in a loop.
 *   <li>{@code jdk-floor}: the same on the JDK's own virtual-thread scheduler ({@code gar scale}'s floor).
 * </ul>
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
 *      -jar target/jmh/benchmarks.jar MassWakeBench
 * </pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 15)
@Measurement(iterations = 25)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class MassWakeBench {
    private static final int LINES = 8;
    private static final long GUARD_SECONDS = 120;

    @Param({"reactor", "pool-floor", "jdk-floor"})
    public String path;

    @Param({"10000"})
    public int waiters;

    private GpuReactor reactor;
    private CompletionLine[] lines;
    private Thread[] threads;
    private CountDownLatch done;
    /** The floors' release: a woken thread that finds it unset parks again (a spurious wake). */
    private volatile boolean released;

    @Setup(Level.Trial)
    public void open() {
        reactor = GpuReactor.builder().build();
    }

    @TearDown(Level.Trial)
    public void close() {
        reactor.close();
    }

    /** Parks {@code waiters} threads (joining their futures, or in {@code LockSupport.park}); not timed. */
    @Setup(Level.Invocation)
    public void park() throws InterruptedException {
        threads = new Thread[waiters];
        done = new CountDownLatch(waiters);
        released = false;
        if (path.equals("reactor")) {
            lines = new CompletionLine[LINES];
            for (int i = 0; i < LINES; i++) lines[i] = CompletionLine.allocate();
            int slots = LINES * CompletionLine.WORDS;
            for (int i = 0; i < waiters; i++) {
                CompletionLine line = lines[(i % slots) / CompletionLine.WORDS];
                Slot slot = Slot.of(i % CompletionLine.WORDS);
                long target = i / slots + 1;
                threads[i] = reactor.startVirtualThread(() -> {
                    MemoryDescriptor d = new MemoryDescriptor(line, slot, target);
                    GpuFuture<Void> f = reactor.await(d, new BenchDevice.WordPort(d));
                    f.join();
                    done.countDown();
                });
            }
            awaitAllWaiting();
            long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
            while (reactor.registrations() < waiters && System.nanoTime() - by < 0) Thread.sleep(1);
            Thread.sleep(20); // the parkers drain their inboxes into the slots, as ManyFutures lets them
        } else {
            Runnable body = () -> {
                while (!released) LockSupport.park();
                done.countDown();
            };
            for (int i = 0; i < waiters; i++) {
                threads[i] = path.equals("jdk-floor") ? Thread.ofVirtual().start(body) : reactor.startVirtualThread(body);
            }
            awaitAllWaiting();
        }
    }

    /** One wake: from the first store or unpark until the last thread ran again. */
    @Benchmark
    public void wake() throws InterruptedException {
        if (lines != null) {
            long last = (waiters - 1) / (LINES * CompletionLine.WORDS) + 1;
            for (CompletionLine l : lines) for (int s = 0; s < CompletionLine.WORDS; s++) l.store(Slot.of(s), last);
        } else {
            released = true;
            for (Thread t : threads) LockSupport.unpark(t);
        }
        if (!done.await(GUARD_SECONDS, TimeUnit.SECONDS)) throw new IllegalStateException(done.getCount() + " never ran");
    }

    @TearDown(Level.Invocation)
    public void end() throws InterruptedException {
        for (Thread t : threads) t.join();
        if (lines != null) for (CompletionLine l : lines) l.close();
        lines = null;
        threads = null;
    }

    private void awaitAllWaiting() throws InterruptedException {
        long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        for (Thread t : threads) {
            while (t.getState() != Thread.State.WAITING) {
                if (System.nanoTime() - by > 0) throw new IllegalStateException("a thread never parked: " + t.getState());
                Thread.sleep(1);
            }
        }
    }
}
