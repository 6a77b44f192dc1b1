package dev.gpureactor.loom;

import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link ReactorCloseStress} and of {@link ReactorCloseNegativeControl}, written once:
 * two threads close one reactor's {@link ReactorClose}; the one that wins does the close's work (a
 * plain write standing for ending every wait) and then {@link ReactorClose#done()}. Each records
 * the work it sees once its close returned. The control's close does not wait for the first.
 */
final class ReactorCloseCase {
    private final ReactorClose close;
    /** The close's work, done by the winner: plain, so only the latch's edge can publish it. */
    private int work;

    /** The test's case: the close as the library builds it. */
    ReactorCloseCase() { this(true); }

    /** A negative control's case: {@code waitsForFirst = false} removes the wait for the first close. */
    ReactorCloseCase(boolean waitsForFirst) { close = new ReactorClose(waitsForFirst); }

    /** One close, as {@link GpuReactor#close()} runs it; the work it sees on return. */
    int closer() {
        if (close.begin(false)) {
            work = 1;
            close.done();
        }
        return work;
    }

    void actor1(II_Result r) { r.r1 = closer(); }

    void actor2(II_Result r) { r.r2 = closer(); }
}
