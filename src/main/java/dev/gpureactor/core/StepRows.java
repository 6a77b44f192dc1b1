package dev.gpureactor.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The row count of the current decode step, published once per step and read by every wait of it:
 * O(1) per step, nothing per token. Release on publish, acquire on read, so a waiter that reads the
 * count also sees what the stepper wrote before publishing it.
 */
public final class StepRows {
    private final AtomicInteger rows = new AtomicInteger();

    public void publish(int rows) {
        if (rows < 0) throw new ReactorException(ErrorCode.InvalidArgument, "rows", rows, ">= 0");
        this.rows.setRelease(rows);
    }

    public int rows() { return rows.getAcquire(); }

    /**
     * {@return the plan of the current step's band}
     *
     * @param bands the bands
     */
    public WaitPlan select(WaitBands bands) { return bands.select(rows()); }
}
