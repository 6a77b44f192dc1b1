package dev.gpureactor.bench;

import dev.gpureactor.core.CompletionLine;
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
 *       target {@code i / 128 + 1}: {@code ManyFutures}' joiners) and joins it; the wake stores every slot's
 *       last target.
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
        done = new CountDownLatch(waiters);
        released = false;
        if (path.equals("reactor")) {
            lines = new CompletionLine[LINES];
            for (int i = 0; i < LINES; i++) lines[i] = CompletionLine.allocate();
            CountDownLatch started = new CountDownLatch(waiters);
            threads = ManyFutures.startJoiners(reactor, lines, waiters, started, done);
            ManyFutures.awaitRegistered(reactor, threads, started);
        } else {
            Runnable body = () -> {
                while (!released) LockSupport.park();
                done.countDown();
            };
            threads = new Thread[waiters];
            for (int i = 0; i < waiters; i++) {
                threads[i] = path.equals("jdk-floor") ? Thread.ofVirtual().start(body) : reactor.startVirtualThread(body);
            }
            ManyFutures.awaitAllWaiting(threads);
        }
    }

    /** One wake: from the first store or unpark until the last thread ran again. */
    @Benchmark
    public void wake() throws InterruptedException {
        if (lines != null) {
            ManyFutures.storeLast(lines, waiters);
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
}
