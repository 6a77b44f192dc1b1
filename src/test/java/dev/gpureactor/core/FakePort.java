package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

/**
 * The wait tests' port: work done at {@code doneAt} (the query's answer), a word
 * that lands at {@code wordAt} once armed if {@code wordWorks}, and an injectable failure. Its park
 * moves the {@link ManualClock} by the bound, or to the word if it lands first; its poll moves the
 * clock to the next thing the query could see. Every call is counted.
 */
final class FakePort implements CompletionPort {
    final ManualClock clock;
    long doneAt;
    long wordAt;
    boolean wordWorks = true;
    RuntimeException fail;
    long failAt = Long.MAX_VALUE;
    RuntimeException parkFails;

    int armed, queries, blocks, parks, polls;
    /** Index in {@link #queryTimes} of the first query made by {@link #poll()}, or -1. */
    int pollFrom = -1;
    boolean lastAnswer;
    final List<Long> queryTimes = new ArrayList<>();
    final List<long[]> parkCalls = new ArrayList<>(); // {start, bound}
    final List<String> calls = new ArrayList<>();

    FakePort(ManualClock clock, long doneAt) {
        this.clock = clock;
        this.doneAt = doneAt;
        this.wordAt = doneAt;
    }

    private void guard() {
        if (calls.size() > 2_000_000) throw new AssertionError("runaway wait: " + calls.size() + " port calls");
    }

    private boolean failing() { return fail != null && clock.nanos() >= failAt; }

    @Override
    public boolean query() {
        guard();
        calls.add("query");
        queries++;
        queryTimes.add(clock.nanos());
        if (failing()) throw fail;
        lastAnswer = clock.nanos() >= doneAt;
        return lastAnswer;
    }

    @Override
    public void block() {
        calls.add("block");
        blocks++;
        clock.set(Math.max(clock.nanos(), fail != null ? Math.min(doneAt, failAt) : doneAt));
        if (failing()) throw fail;
        lastAnswer = true;
    }

    @Override
    public void arm() {
        calls.add("arm");
        armed++;
    }

    @Override
    public boolean park(long boundNanos) {
        guard();
        calls.add("park");
        parks++;
        assertTrue(boundNanos > 0, "park bound " + boundNanos);
        assertTrue(armed == 1, "parked with armed=" + armed);
        long now = clock.nanos();
        parkCalls.add(new long[] {now, boundNanos});
        if (parkFails != null) throw parkFails;
        long wake = Clock.after(now, boundNanos);
        if (wordWorks && wordAt <= wake) {
            clock.set(Math.max(now, wordAt));
            return true;
        }
        clock.set(wake);
        return false;
    }

    @Override
    public void poll() {
        calls.add("poll");
        polls++;
        if (pollFrom < 0) pollFrom = queryTimes.size();
        while (!query()) {
            long next = fail != null ? Math.min(doneAt, failAt) : doneAt;
            clock.set(Math.max(clock.nanos(), next));
        }
    }

    /**
     * The largest gap between two queries made at or after {@code from}, up to the first query of
     * {@link #poll()}: this fake's poll jumps the clock to the next event, standing for a spin that
     * queries all along, so its gaps say nothing about the backstop.
     */
    long largestQueryGapFrom(long from) {
        long gap = 0;
        Long prev = null;
        int end = pollFrom < 0 ? queryTimes.size() : Math.min(queryTimes.size(), pollFrom + 1);
        for (long t : queryTimes.subList(0, end)) {
            if (t < from) continue;
            if (prev != null) gap = Math.max(gap, t - prev);
            prev = t;
        }
        return gap;
    }
}
