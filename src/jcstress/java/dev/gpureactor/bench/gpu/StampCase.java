package dev.gpureactor.bench.gpu;

import org.openjdk.jcstress.infra.results.J_Result;

/**
 * The body of {@link StampStress} and of {@link StampNegativeControl}, written once: the control
 * differs only by the stamp it is given ({@link Stamp#unordered}: the publish's two lines swapped).
 */
final class StampCase {
    private final Stamp stamp;

    /** The test's case: as the library builds it. */
    StampCase() {
        this(new Stamp(0));
    }

    /** A negative control's case: {@code stamp} changes its one line. */
    StampCase(Stamp stamp) {
        this.stamp = stamp;
    }

    void observer() {
        stamp.publish(1, 42);
    }

    void harness(J_Result r) {
        r.r1 = stamp.atIfReached(1);
    }
}
