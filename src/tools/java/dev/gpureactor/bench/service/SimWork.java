package dev.gpureactor.bench.service;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The server's GPU: {@value #STREAMS} simulated streams over two lines (eight slots each) of one
 * {@link SimDevice} whose work sleeps in the OS. A request's three operations (kernel, stamp,
 * store) are queued on its stream under that stream's lock, so that requests sharing a stream do
 * not interleave: each store follows its own request's work and stamp.
 */
final class SimWork implements AutoCloseable {
    static final int STREAMS = 16;

    private final SimDevice device = SimDevice.open();
    private final SimStream[] streams = new SimStream[STREAMS];
    /** A j.u.c. lock, not a monitor: a handler virtual thread that waits for it unmounts. */
    private final ReentrantLock[] locks = new ReentrantLock[STREAMS];

    SimWork() {
        for (int i = 0; i < STREAMS; i++) {
            streams[i] = device.stream();
            locks[i] = new ReentrantLock();
        }
    }

    /** Queues request {@code id}'s work on its stream and returns the job to wait on. */
    Job launch(long id) {
        Job job = new Job(id);
        int s = Job.stream(id, STREAMS);
        locks[s].lock();
        try {
            streams[s].compute(Job.work(id), job::kernel);
            streams[s].compute(Duration.ZERO, job::stamp);
            job.signal = streams[s].signal();
        } finally {
            locks[s].unlock();
        }
        return job;
    }

    @Override
    public void close() { device.close(); }
}
