package dev.gpureactor.loom;

/**
 * How the carrier pool hands woken virtual threads to its carriers (docs/SCHEDULER.md compares them).
 *
 * <ul>
 * <li>{@link #FORK_JOIN}: a {@link java.util.concurrent.ForkJoinPool} in async (FIFO) mode, as the
 *     JDK's own virtual-thread scheduler: one work queue per carrier, a carrier that wakes a thread
 *     pushes it on its own queue, idle carriers steal; the pool's own spin-then-park for idling.</li>
 * <li>{@link #SHARED_FIFO}: one shared FIFO queue; an idle carrier spins {@code idleSpin}, then
 *     sleeps in {@link IdleCarriers}.</li>
 * </ul>
 */
public enum CarrierPolicy {
    FORK_JOIN("fork-join"),
    SHARED_FIFO("shared-fifo");

    private final String declaredName;

    CarrierPolicy(String declaredName) { this.declaredName = declaredName; }

    public String declaredName() { return declaredName; }

    @Override
    public String toString() { return declaredName; }
}
