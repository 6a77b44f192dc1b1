package dev.gpureactor.bench.service;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every request of a cell, by id: how often the server answered it and how often a client received
 * an answer to it, so that a request answered never, twice, or with the wrong payload is counted.
 * Ids are handed out in order up to the cell's bound ({@link #next} returns -1 past it).
 */
final class Ledger {
    private final AtomicIntegerArray served;
    private final AtomicIntegerArray received;
    private final AtomicLong ids = new AtomicLong();
    /** Answers whose id or payload was not the request's (client side), or whose payload failed the handler's check. */
    final LongAdder wrong = new LongAdder();
    /** Requests that failed: a non-200 answer, a connection error, a protocol error. */
    final LongAdder failed = new LongAdder();
    /** Requests answered right, as the clients count them (the throughput counter). */
    final LongAdder answered = new LongAdder();
    /** Connections the clients opened again after the server closed one. */
    final LongAdder reconnects = new LongAdder();

    Ledger(int bound) {
        served = new AtomicIntegerArray(bound);
        received = new AtomicIntegerArray(bound);
    }

    /** The next request id, or -1 when the cell's bound is reached. */
    long next() {
        long id = ids.getAndIncrement();
        return id < served.length() ? id : -1;
    }

    boolean known(long id) { return id >= 0 && id < Math.min(ids.get(), served.length()); }

    void served(long id) { served.incrementAndGet((int) id); }

    void received(long id) { received.incrementAndGet((int) id); }

    long issued() { return Math.min(ids.get(), served.length()); }

    boolean exhausted() { return ids.get() >= served.length(); }

    /** The counts, once every client has stopped. */
    Counts count() {
        long issued = issued(), lost = 0, doubled = 0;
        for (int i = 0; i < issued; i++) {
            int r = received.get(i), s = served.get(i);
            if (r == 0) lost++;
            if (r > 1 || s > 1) doubled++;
        }
        return new Counts(issued, answered.sum(), lost, doubled, wrong.sum(), failed.sum(), reconnects.sum());
    }

    /**
     * @param issued     request ids handed to clients
     * @param answered   answers with the right id and payload
     * @param lost       ids no answer was received for
     * @param doubled    ids answered (served or received) more than once
     * @param wrong      answers with a wrong id or payload
     * @param failed     requests that ended in an error (also counted lost)
     * @param reconnects connections reopened after the server closed one (not an error)
     */
    record Counts(long issued, long answered, long lost, long doubled, long wrong, long failed, long reconnects) {
        boolean clean() { return lost == 0 && doubled == 0 && wrong == 0; }

        Counts plus(Counts o) {
            return new Counts(issued + o.issued, answered + o.answered, lost + o.lost, doubled + o.doubled, wrong + o.wrong,
                    failed + o.failed, reconnects + o.reconnects);
        }
    }
}
