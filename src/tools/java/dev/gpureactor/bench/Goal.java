package dev.gpureactor.bench;

/**
 * One goal of the benchmarks, judged on numbers measured in the same run.
 *
 * @param id       short name ("floor-10x")
 * @param claim    what is claimed, in words
 * @param at       the wait length or run it was judged at ("1ms", "100000 futures")
 * @param value    the measured ratio or quantity
 * @param unit     "x" for a ratio, else the quantity's unit
 * @param limit    the goal's bound
 * @param atMost   true when {@code value} must be at most {@code limit}, false when at least
 * @param evidence the two numbers a ratio came from, or how the value was measured
 */
public record Goal(String id, String claim, String at, double value, String unit, double limit, boolean atMost, String evidence) {
    public boolean pass() { return atMost ? value <= limit : value >= limit; }

    /** How far from the bound, as a factor (1 at the bound; above 1 means missed by that factor). */
    public double missFactor() {
        if (pass()) return 0;
        if (atMost) return limit == 0 ? Double.POSITIVE_INFINITY : value / limit;
        return value == 0 ? Double.POSITIVE_INFINITY : limit / value;
    }
}
