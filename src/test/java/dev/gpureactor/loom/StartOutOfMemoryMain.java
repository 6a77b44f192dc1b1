package dev.gpureactor.loom;

import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * {@link StartOutOfMemoryTest}'s child, run at {@code -Xmx64m}: 300 tasks on {@code reactor.newExecutor()}, each
 * marking its first act and then allocating up to 20 MB in 0.5 MB pieces, sleeping 1 ms between them, until the
 * storm is called off. Prints {@code unbegun} (tasks neither done nor begun once the storm is over and the heap
 * free), {@code live} (the pool's count of live threads) and {@code alive} (the tasks' threads still alive: those the
 * JDK itself strands, see the test) once the two agree or 10 s passed.
 */
public final class StartOutOfMemoryMain {
    private static final int TASKS = 300, PIECES = 40;
    private static volatile boolean storming = true;
    /** Each task's pieces, by task: a thread the JDK strands parked would otherwise keep its pieces for good. */
    private static final byte[][][] pieces = new byte[TASKS][PIECES][];

    private StartOutOfMemoryMain() { }

    public static void main(String[] args) throws Exception {
        AtomicIntegerArray begun = new AtomicIntegerArray(TASKS); // made before the storm: marking allocates nothing
        Thread[] threads = new Thread[TASKS];
        Future<?>[] futures = new Future<?>[TASKS];
        Runnable[] tasks = new Runnable[TASKS];
        try (GpuReactor reactor = GpuReactor.open()) {
            ExecutorService executor = reactor.newExecutor();
            executor.submit(() -> { }).get(); // the submit's and the future's classes loaded before the heap fills
            // Everything this thread needs during the storm is made before it: an OutOfMemoryError of its own
            // would end the child, not test the reactor.
            for (int i = 0; i < TASKS; i++) {
                int k = i;
                tasks[k] = () -> {
                    threads[k] = Thread.currentThread();
                    begun.set(k, 1);
                    try {
                        for (int j = 0; j < PIECES && storming; j++) {
                            pieces[k][j] = new byte[1 << 19]; // held in the table only, so the storm's end frees it
                            Thread.sleep(1);
                        }
                    } catch (InterruptedException e) {
                        // nothing interrupts these
                    } finally {
                        Arrays.fill(pieces[k], null);
                    }
                };
            }
            for (int k = 0; k < TASKS; k++) {
                while (futures[k] == null) {
                    try {
                        futures[k] = executor.submit(tasks[k]);
                    } catch (OutOfMemoryError e) {
                        Thread.sleep(2); // a submit that failed for want of memory started nothing: submit again
                    }
                }
            }
            // The storm runs until no task has finished for a second (some never will: see the test), at most 8 s.
            long end = System.nanoTime() + 8_000_000_000L, quietSince = System.nanoTime();
            int lastDone = -1;
            while (System.nanoTime() < end && System.nanoTime() - quietSince < 1_000_000_000L) {
                try {
                    int done = 0;
                    for (int k = 0; k < TASKS; k++) if (futures[k].isDone()) done++;
                    if (done != lastDone) {
                        lastDone = done;
                        quietSince = System.nanoTime();
                    }
                    Thread.sleep(100);
                } catch (OutOfMemoryError e) {
                    // this thread's own, while the storm fills the heap: look again
                }
            }
            storming = false;
            for (byte[][] row : pieces) Arrays.fill(row, null); // the pieces of the threads the JDK stranded too
            System.gc();
            // Every task that was not stranded runs to its end now; wait until the pool's count of live threads and
            // the tasks' threads still alive agree (the watch sweeps a thread counted twice within a look), at most 10 s.
            int unbegun = 0, alive = 0, live = -1;
            end = System.nanoTime() + 10_000_000_000L;
            while (true) {
                unbegun = 0;
                alive = 0;
                for (int i = 0; i < TASKS; i++) {
                    if (!futures[i].isDone() && begun.get(i) == 0) unbegun++;
                    if (threads[i] != null && threads[i].isAlive()) alive++;
                }
                live = reactor.carriers().orElseThrow().liveThreads();
                if ((unbegun == 0 && live == alive) || System.nanoTime() > end) break;
                Thread.sleep(50);
            }
            System.out.println("unbegun=" + unbegun);
            System.out.println("live=" + live);
            System.out.println("alive=" + alive);
            System.out.println("done");
            System.out.flush();
            Runtime.getRuntime().halt(0); // the threads the JDK stranded would hold the close for its grace
        }
    }
}
