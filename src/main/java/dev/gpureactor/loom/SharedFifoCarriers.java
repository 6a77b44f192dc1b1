package dev.gpureactor.loom;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * Carriers taking tasks from one shared FIFO queue ({@link CarrierPolicy#SHARED_FIFO}). An idle
 * carrier spins {@code idleSpinNanos} (a sleeping carrier costs 10–30 µs to wake on these machines,
 * a spinning one well under one), then sleeps in {@link IdleCarriers}, whose protocol guarantees that
 * no pushed task stays unrun while a carrier sleeps.
 *
 * <p>{@link #retired} is written once by {@link #retire}, after the pool saw nothing queued or
 * running and closed admission, so a carrier that reads it true after finding the queue empty may
 * leave: no task can arrive any more (the pool's ctl word proves it, see {@link CarrierPool}).
 */
final class SharedFifoCarriers implements Carriers {
    private final CarrierPool pool;
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final IdleCarriers idle;
    private final List<Thread> threads = new ArrayList<>();
    private final long idleSpinNanos;
    /** One per carrier, index for index with {@link #threads}; each written by its carrier only. */
    private final List<CarrierTally> tallies = new ArrayList<>();
    /** Extra carriers running now (the watch's compensation): each drains the queue, then leaves. */
    private final Set<Thread> extras = ConcurrentHashMap.newKeySet();
    /** Volatile: written once by retire() before signalAll; read by a carrier that found no task. */
    private volatile boolean retired;
    /** What an idle carrier re-checks after announcing itself asleep. */
    private final BooleanSupplier workOrRetired = () -> !queue.isEmpty() || retired;

    SharedFifoCarriers(CarrierPool pool, int size, long idleSpinNanos, IdleCarriers idle) {
        this.pool = pool;
        this.idleSpinNanos = idleSpinNanos;
        this.idle = idle;
        for (int i = 0; i < size; i++) {
            CarrierTally tally = new CarrierTally();
            tallies.add(tally);
            threads.add(carrierThread("gar-carrier-" + i, () -> carry(tally)));
        }
        threads.forEach(Thread::start);
    }

    @Override
    public void push(Runnable task) {
        queue.offer(task); // (a) the task is visible ...
        idle.signal();     // (b) ... before a sleeper is popped: see IdleCarriers
    }

    /** A carrier's loop; {@code tally} is its own: its idle episodes are timed here, its tasks sampled ({@link CarrierTally}). */
    private void carry(CarrierTally tally) {
        tally.owned();
        while (true) {
            Runnable r = queue.poll();
            if (r != null) {
                pool.runTask(r, tally);
                continue;
            }
            if (retired) return;
            long t0 = System.nanoTime();
            long spinUntil = t0 + idleSpinNanos;
            while ((r = queue.peek()) == null && !retired && System.nanoTime() - spinUntil < 0) Thread.onSpinWait();
            if (r == null && !retired) idle.sleep(workOrRetired);
            tally.idled(System.nanoTime() - t0);
        }
    }

    /** A carrier's idle handshake up to the park: whether {@code me} may park now (jcstress). */
    boolean announceIdle(Thread me) { return idle.announce(me, workOrRetired); }

    int sleeping() { return idle.sleeping(); }

    @Override
    public void retire() {
        retired = true;
        idle.signalAll();
    }

    @Override
    public boolean awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(java.time.Duration.ofNanos(left))) return false;
        }
        return true;
    }

    @Override
    public int size() { return threads.size(); }

    @Override
    public boolean isCarrier(Thread t) { return threads.contains(t) || extras.contains(t); }

    @Override
    public void forEachCarrier(BiConsumer<Thread, CarrierTally> each) {
        for (int i = 0; i < threads.size(); i++) each.accept(threads.get(i), tallies.get(i));
    }

    /**
     * Starts extra carriers until {@code extra} run, while tasks are queued. An extra one drains the
     * queue and leaves when it finds it empty (its tasks count in the pool's stray tally), so nothing
     * withdraws it; a carrier still blocked when work is queued again gets another at the watch's next
     * tick, and none is started for an empty queue (it would leave at once).
     */
    @Override
    public void compensate(int extra) {
        for (int n = extras.size(); n < extra && !retired && !queue.isEmpty(); n++) {
            Thread t = carrierThread("gar-carrier-extra", this::drain);
            extras.add(t); // before it starts: it removes itself as it leaves
            t.start();
        }
    }

    /** A carrier thread, unstarted: daemon, the system class loader, no inherited thread locals (as the JDK's carriers). */
    private static Thread carrierThread(String name, Runnable loop) {
        Thread t = Thread.ofPlatform().name(name).daemon(true).inheritInheritableThreadLocals(false).unstarted(loop);
        t.setContextClassLoader(ClassLoader.getSystemClassLoader());
        return t;
    }

    private void drain() {
        try {
            Runnable r;
            while ((r = queue.poll()) != null) pool.runTask(r, null);
        } finally {
            extras.remove(Thread.currentThread());
        }
    }

    @Override
    public long idleNanos() {
        long n = 0;
        for (CarrierTally t : tallies) n += t.idleNanos();
        return n;
    }

    @Override
    public Iterable<CarrierTally> tallies() { return tallies; }

    int queued() { return queue.size(); }

    /** Takes the next queued task, or null: jcstress plays the carrier with it. */
    Runnable poll() { return queue.poll(); }
}
