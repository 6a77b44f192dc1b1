package dev.gpureactor.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LL_Result;

import java.lang.foreign.Arena;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Wrapping order across both 64-bit boundaries, while the word moves: a stream's stores go up by
 * one each, and {@link MemoryDescriptor#isComplete()} must never go from reached back to not
 * reached for a reader that checks while the stores land.
 *
 * <p>Two slots of one real {@link CompletionLine} (off-heap, acquire loads, release stores): slot 0
 * walks the unsigned wrap {@code 0xFFFF_FFFF_FFFF_FFFE → …FFFF → 0 → 1}, slot 1 the signed one
 * {@code MAX_VALUE-1 → MAX_VALUE → MIN_VALUE → MIN_VALUE+1}. For each slot the reader checks target
 * {@code A} (the second value of the walk) and target {@code B} (the third, past the boundary) as
 * {@code A, B, A, B}; each letter of a result is one check, {@code T} reached.
 *
 * <p>The acceptable patterns are exactly the monotone ones: {@code A} and {@code B} never fall, and
 * {@code B} seen reached means {@code A} is reached at the next look. An unsigned compare fails
 * slot 0 ({@code 0 < 0xFFFF…FFFF}); a signed compare of raw values fails slot 1.
 */
@JCStressTest
@Description("Wrapping order: reached never goes from true to false while the word crosses 2^64 or 2^63.")
@Outcome(id = "(FFFF|FFFT|FFTF|FFTT|FTTT|TFTF|TFTT|TTTT), (FFFF|FFFT|FFTF|FFTT|FTTT|TFTF|TFTT|TTTT)",
        expect = ACCEPTABLE, desc = "Monotone: each target, once reached, stays reached (any interleaving of the stores).")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: reached went from true to false across the 2^64 (slot 0) or 2^63 (slot 1) boundary — "
                + "a non-wrapping compare would drop a completed waiter or re-arm a finished one.")
@State
public class WrappingOrderStress {
    private static final long U0 = 0xFFFF_FFFF_FFFF_FFFEL;
    private static final long S0 = Long.MAX_VALUE - 1;

    private final CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES),
            "jcstress", () -> { });
    private final Slot u = Slot.of(0), s = Slot.of(1);
    private final MemoryDescriptor ua = new MemoryDescriptor(line, u, U0 + 1), ub = new MemoryDescriptor(line, u, U0 + 2);
    private final MemoryDescriptor sa = new MemoryDescriptor(line, s, S0 + 1), sb = new MemoryDescriptor(line, s, S0 + 2);
    private boolean u1, u2, u3, u4, s1, s2, s3, s4;

    public WrappingOrderStress() {
        line.store(u, U0);
        line.store(s, S0);
    }

    @Actor
    public void device() {
        line.store(u, U0 + 1);
        line.store(s, S0 + 1);
        line.store(u, U0 + 2);
        line.store(s, S0 + 2);
        line.store(u, U0 + 3);
        line.store(s, S0 + 3);
    }

    @Actor
    public void reader() {
        u1 = ua.isComplete();
        s1 = sa.isComplete();
        u2 = ub.isComplete();
        s2 = sb.isComplete();
        u3 = ua.isComplete();
        s3 = sa.isComplete();
        u4 = ub.isComplete();
        s4 = sb.isComplete();
    }

    @Arbiter
    public void arbiter(LL_Result r) {
        r.r1 = pattern(u1, u2, u3, u4);
        r.r2 = pattern(s1, s2, s3, s4);
    }

    private static String pattern(boolean... b) {
        StringBuilder sb = new StringBuilder(b.length);
        for (boolean x : b) sb.append(x ? 'T' : 'F');
        return sb.toString();
    }
}
