package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;

/**
 * A slot's default readback point, the key the estimator learns a wait under when the caller names none:
 * one small record per wait rather than a concatenated string. The reactor makes one per wait; the roster
 * forgets a closed line's eight.
 *
 * @param line the line
 * @param slot the slot's index on it
 */
public record SlotPoint(CompletionLine line, int slot) {}
