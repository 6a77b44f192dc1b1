package dev.gpureactor.bench.blocking;

import dev.gpureactor.loom.GpuReactor;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * Virtual threads blocked, then one task queued behind them: the time until it starts, and the
 * carrier threads alive during the blocking, after it, and {@code after} later (the pools' keep-alive
 * is 30 s). Each level runs on the JDK's default scheduler (the control) and on a reactor's carrier
 * pool of the same parallelism, in one JVM. How they block ({@link Block}): in a pipe read (a child
 * process's stdout, as a user's code reads one: the JDK compensates it when the carrier is its
 * {@code CarrierThread}), or in the open(2) of a FIFO (which the JDK does not wrap: on its scheduler
 * the queued task starves; on the reactor's, the carrier watch compensates it).
 *
 * @param blockers the blocked-thread counts, in order
 * @param after    how long after the last level to count the carriers again
 * @param patience how long the queued task may wait before it counts as starved
 * @param block    how the threads block
 */
public record BlockingBench(List<Integer> blockers, Duration after, Duration patience, Block block) {
    /** How the blocked threads block. */
    public enum Block {
        /** A read of a child process's stdout: the JDK's {@code Blocker} compensates it. */
        PIPE,
        /** The open(2) of a FIFO no one writes yet: nothing in the JDK compensates it. */
        FIFO
    }

    /**
     * One level on one scheduler. {@code rampNanos}: from the first reader's start to the last one
     * running (each needs a carrier, the earlier ones holding theirs); {@code startNanos}: from then to the
     * task queued behind them running. Each is -1 when it did not come within the patience.
     */
    public record Level(String scheduler, int blockers, long rampNanos, long startNanos, int carriersBefore, int carriersBlocking,
                        int carriersReleased) {}

    /** A run: the levels, and each scheduler's carriers {@code after} the last level. */
    public record Result(List<Level> levels, int jdkCarriersAfter, int reactorCarriersAfter, Duration after) {}

    /** Runs every level on both schedulers, then waits {@code after} and counts again. */
    public Result run(Consumer<String> progress) throws Exception {
        List<Level> levels = new ArrayList<>();
        try (GpuReactor reactor = GpuReactor.builder().carriers(Runtime.getRuntime().availableProcessors()).build()) {
            if (reactor.carriers().isEmpty())
                throw new IllegalStateException("no carrier pool here (the reactor fell back to the JDK's scheduler): " + reactor.warnings());
            IntSupplier reactorCarriers = () -> reactor.carriers().orElseThrow().threads();
            IntSupplier jdkCarriers = BlockingBench::jdkCarriers;
            for (int n : blockers) {
                levels.add(level("jdk", n, Thread.ofVirtual().factory(), jdkCarriers, progress));
                levels.add(level("reactor", n, reactor.threadFactory(), reactorCarriers, progress));
            }
            progress.accept(String.format(Locale.ROOT, "waiting %d s to count the carriers again ...", after.toSeconds()));
            Thread.sleep(after.toMillis());
            return new Result(levels, jdkCarriers.getAsInt(), reactorCarriers.getAsInt(), after);
        }
    }

    private Level level(String scheduler, int n, ThreadFactory threads, IntSupplier carriers, Consumer<String> progress)
            throws Exception {
        int before = carriers.getAsInt();
        List<Process> children = new ArrayList<>(n);
        List<java.nio.file.Path> fifos = new ArrayList<>(n);
        List<java.io.RandomAccessFile> keepers = new ArrayList<>(n);
        java.nio.file.Path dir = block == Block.FIFO ? java.nio.file.Files.createTempDirectory("gar-blocking") : null;
        List<Thread> readers = new ArrayList<>(n);
        CountDownLatch started = new CountDownLatch(n);
        try {
            for (int i = 0; i < n; i++) {
                Runnable read;
                if (block == Block.PIPE) {
                    Process p = new ProcessBuilder("cat").start(); // says nothing until written to
                    children.add(p);
                    read = () -> {
                        try {
                            p.getInputStream().read();
                        } catch (IOException e) {
                            // the child was destroyed: the reader ends
                        }
                    };
                } else {
                    java.nio.file.Path fifo = dir.resolve("f" + i);
                    if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0)
                        throw new IOException("mkfifo " + fifo + " failed");
                    fifos.add(fifo);
                    read = () -> {
                        try (java.io.FileInputStream in = new java.io.FileInputStream(fifo.toFile())) { // open(2) blocks until a writer opens
                            in.read();
                        } catch (IOException e) {
                            // the FIFO went away: the reader ends
                        }
                    };
                }
                readers.add(threads.newThread(() -> {
                    started.countDown();
                    read.run();
                }));
            }
            long startAll = System.nanoTime();
            for (Thread t : readers) t.start(); // each needs a carrier to start: while the earlier ones block, a spare
            long rampNanos = started.await(patience.toMillis(), TimeUnit.MILLISECONDS) ? System.nanoTime() - startAll : -1;
            if (rampNanos < 0) progress.accept(scheduler + " " + n + ": not every reader started");
            Thread.sleep(200); // into the read
            long t0 = System.nanoTime();
            CompletableFuture<Long> ran = new CompletableFuture<>();
            threads.newThread(() -> ran.complete(System.nanoTime())).start();
            long startNanos;
            try {
                startNanos = ran.get(patience.toMillis(), TimeUnit.MILLISECONDS) - t0;
            } catch (java.util.concurrent.TimeoutException e) {
                startNanos = -1;
            }
            int blocking = carriers.getAsInt();
            for (Process p : children) {
                try (OutputStream in = p.getOutputStream()) {
                    in.write('x');
                } catch (IOException e) {
                    p.destroyForcibly();
                }
            }
            for (java.nio.file.Path fifo : fifos) { // O_RDWR never blocks (Linux) and stays a writer until the readers are done
                java.io.RandomAccessFile keeper = new java.io.RandomAccessFile(fifo.toFile(), "rw");
                keepers.add(keeper);
                keeper.write('x');
            }
            for (Thread t : readers) t.join(TimeUnit.SECONDS.toMillis(30));
            Thread.sleep(200);
            Level l = new Level(scheduler, n, rampNanos, startNanos, before, blocking, carriers.getAsInt());
            progress.accept(String.format(Locale.ROOT, "%-8s %4d blocked: all running after %s; queued task started after %s; carriers %d -> %d -> %d",
                    scheduler, n, rampNanos < 0 ? "> " + patience.toMillis() + " ms" : ms(rampNanos),
                    startNanos < 0 ? "> " + patience.toMillis() + " ms (starved)" : ms(startNanos), before, blocking, l.carriersReleased()));
            return l;
        } finally {
            children.forEach(Process::destroyForcibly);
            for (java.io.RandomAccessFile k : keepers) k.close();
            for (java.nio.file.Path f : fifos) java.nio.file.Files.deleteIfExists(f);
            if (dir != null) java.nio.file.Files.deleteIfExists(dir);
        }
    }

    /** The JDK's own scheduler's carriers alive now: threads of exactly the JDK's carrier class (ours subclass it). */
    static int jdkCarriers() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getClass().getName().equals("jdk.internal.misc.CarrierThread") && t.isAlive()) n++;
        return n;
    }

    static String ms(long nanos) { return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6); }

    /** The run as a table. */
    public static String table(Result r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-9s %9s %16s %16s %16s %16s %16s%n", "", "blocked", "all running", "task starts",
                "carriers before", "while blocked", "after release"));
        for (Level l : r.levels())
            b.append(String.format(Locale.ROOT, "%-9s %9d %16s %16s %16d %16d %16d%n", l.scheduler(), l.blockers(),
                    l.rampNanos() < 0 ? "not within" : ms(l.rampNanos()), l.startNanos() < 0 ? "starved" : ms(l.startNanos()),
                    l.carriersBefore(), l.carriersBlocking(), l.carriersReleased()));
        b.append(String.format(Locale.ROOT, "carriers %d s after the last level: jdk %d, reactor %d%n", r.after().toSeconds(),
                r.jdkCarriersAfter(), r.reactorCarriersAfter()));
        return b.toString();
    }

    /** The run as JSON. */
    public static String json(Result r, String machine) {
        StringBuilder b = new StringBuilder("{\"machine\":\"").append(machine.replace("\"", "'")).append("\",\"afterSeconds\":")
                .append(r.after().toSeconds()).append(",\"jdkCarriersAfter\":").append(r.jdkCarriersAfter())
                .append(",\"reactorCarriersAfter\":").append(r.reactorCarriersAfter()).append(",\"levels\":[");
        for (int i = 0; i < r.levels().size(); i++) {
            Level l = r.levels().get(i);
            if (i > 0) b.append(',');
            b.append(String.format(Locale.ROOT, "{\"scheduler\":\"%s\",\"blockers\":%d,\"rampNanos\":%d,\"startNanos\":%d,\"carriersBefore\":%d,"
                    + "\"carriersBlocking\":%d,\"carriersReleased\":%d}", l.scheduler(), l.blockers(), l.rampNanos(), l.startNanos(),
                    l.carriersBefore(), l.carriersBlocking(), l.carriersReleased()));
        }
        return b.append("]}").toString();
    }
}
