package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;

import java.time.Duration;

/** The exported view of the reactor's pool: each call reads the pool. */
record PoolView(CarrierPool pool) implements CarrierView {
    @Override public int size() { return pool.size(); }

    @Override public int threads() { return pool.threads(); }

    @Override public int liveThreads() { return pool.liveThreads(); }

    @Override public int queueDepth() { return pool.queueDepth(); }

    @Override public long compensations() { return pool.compensations(); }

    @Override public boolean awaitExit(Duration timeout) throws InterruptedException { return pool.awaitExit(timeout); }
}
