package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.parker.ReactorCounters;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;

/**
 * Where a reactor's threads run: its carrier pool (null on the JDK's scheduler), its factory of virtual
 * threads, and the executor its callbacks run on.
 *
 * @param pool           the carrier pool, or null on the JDK's scheduler
 * @param virtualThreads new virtual threads on the reactor's scheduler; on the pool, each counted live by it
 * @param callbacks      the pool's callback executor, or the common pool on the JDK's scheduler
 */
record ReactorThreads(CarrierPool pool, ThreadFactory virtualThreads, Executor callbacks) {
    /** The threads of a reactor on {@code scheduler}, with {@code carriers} carriers on the pool. */
    static ReactorThreads of(Scheduler scheduler, int carriers, ReactorWarnings warnings) {
        if (scheduler != Scheduler.CARRIER_POOL) {
            return new ReactorThreads(null, Thread.ofVirtual().name("gar-vt-", 0).factory(), ForkJoinPool.commonPool());
        }
        CarrierPool pool = new CarrierPool(carriers, warnings);
        try {
            // callbacks are never kept by a parker: they do not run on parkers
            return new ReactorThreads(pool, pool.threadFactory(VirtualThreads.builder(pool).name("gar-vt-", 0)), pool.callbacks());
        } catch (RuntimeException | Error e) {
            pool.close(); // its watch thread started with it: a reactor that never opened leaves nothing behind
            throw e;
        }
    }

    /** {@code threads}, refusing {@code newThread} (coded {@code Rejected}) once {@code closed} reads true. */
    static ThreadFactory refusingOnce(ThreadFactory threads, BooleanSupplier closed) {
        return task -> {
            if (closed.getAsBoolean()) throw ReactorException.rejection("reactor", "virtual thread");
            return threads.newThread(task);
        };
    }

    /** The reactor's {@link RunStats}: its counters, and its pool's figures (0 without a pool). */
    static RunStats stats(ReactorCounters.Counts c, CarrierPool p) {
        return new RunStats(p == null ? 0 : p.tasksRun(), c.woke(), c.slept(), c.parked(), c.queried(),
                p == null ? 0 : p.idleNanos(), p == null ? 0 : p.busyNanos(), c.registrations(), c.parkersStarted(),
                c.parkersDied(), c.hosted(), c.relieved(), c.ranWaiting(), p == null ? 0 : p.queueDepth(),
                p == null ? 0 : p.liveThreads(), p == null ? 0 : p.size(), c.parkerCpuNanos(), p == null ? 0 : p.compensations(),
                new RunStats.ParkerPhases(c.turns(), c.emptyTurns(), c.turnNanos(), c.spinNanos(), c.hostNanos(),
                        c.carrierTurns(), c.carrierWoke()));
    }
}
