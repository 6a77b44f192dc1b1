package dev.gpureactor.carrier;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Carriers with no thread: a queue whose tasks the caller runs by hand ({@link CarrierPool#runWaiting}).
 * jcstress plays the carriers with it, so that the pool's ctl word is exercised on its real code
 * with the test's actors as the only threads.
 */
final class QueuedCarriers implements Carriers {
    private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
    /** Run before each push: a test's fault there (standing for an OutOfMemoryError); nothing by default. */
    private final Runnable beforePush;

    QueuedCarriers() { this(() -> { }); }

    QueuedCarriers(Runnable beforePush) { this.beforePush = beforePush; }

    /** The next queued task, or null: with no carrier threads every queued task waits for one. */
    @Override
    public Runnable takeWaiting() { return queue.poll(); }

    @Override
    public void push(Runnable task) {
        beforePush.run();
        queue.offer(task);
    }

    @Override
    public int pushAll(Runnable[] tasks) { return pushEach(tasks); }

    @Override
    public void retire() { }

    @Override
    public boolean awaitExit(long timeout, TimeUnit unit) { return true; }

    @Override
    public int size() { return 0; }

    @Override
    public int threads() { return 0; }

    @Override
    public boolean isCarrier(Thread t) { return false; }

    @Override
    public long idleNanos() { return 0; }

    @Override
    public Iterable<CarrierTally> tallies() { return List.of(); }

    @Override
    public void forEachCarrier(BiConsumer<Thread, CarrierTally> each) { }

    @Override
    public boolean jdkCompensating(Thread carrier) { return false; }

    @Override
    public long beginBlock() { return 0; }

    @Override
    public void endBlock(long post) { }

    @Override
    public int queued() { return queue.size(); }
}
