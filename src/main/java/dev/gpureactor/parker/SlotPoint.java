package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;

/**
 * A slot's default readback point, the key the estimator learns a wait under when the caller names none:
 * one small record per wait rather than a concatenated string. The reactor makes one per wait; the roster
 * forgets a closed line's eight.
 *
 * <p>Equal when of the same line (identity: a line is its memory) and slot. {@code equals} and
 * {@code hashCode} are written out: the record's own go through method handles that the JIT did not always
 * flatten, and every completion asks them (the scan's runs per point, then the estimator's table), which a
 * profile of a 512-client service put above the wait's own settle (docs/PARKER.md, "The estimator's key").
 *
 * @param line the line
 * @param slot the slot's index on it
 */
public record SlotPoint(CompletionLine line, int slot) {
    @Override
    public boolean equals(Object o) {
        return o instanceof SlotPoint p && p.slot == slot && p.line == line;
    }

    @Override
    public int hashCode() {
        return 31 * System.identityHashCode(line) + slot;
    }
}
