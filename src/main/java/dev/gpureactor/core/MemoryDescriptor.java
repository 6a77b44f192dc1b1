package dev.gpureactor.core;

import java.util.Objects;

/**
 * "Word {@code slot} of {@code line} reaching {@code target}": the unit a waiter waits on, the GPU
 * counterpart of a readable file descriptor.
 *
 * <p>Reached means the word has reached the target in <em>wrapping order</em>: sequence numbers go
 * up by one per store, and {@code word - target}, read as a signed 64-bit number, is non-negative.
 * It therefore stays right across the 2^64 boundary, for targets within 2^63 of the word, and a
 * later store that lands before the waiter looks still completes it.
 *
 * @param line the line
 * @param slot the slot
 * @param target the value that means done
 */
public record MemoryDescriptor(CompletionLine line, Slot slot, long target) {
    /** Checks that the line and the slot are not null. */
    public MemoryDescriptor {
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(slot, "slot");
    }

    /**
     * Acquire load: once true, the device's writes before its store are visible to this thread.
     *
     * @return whether the word reached the target (an acquire load)
     */
    public boolean isComplete() {
        return reached(line.word(slot), target);
    }

    /**
     * Sequentially consistent re-check, for the register-then-recheck handshake.
     *
     * @return whether the word reached the target (a volatile load)
     */
    public boolean isCompleteVolatile() {
        return reached(line.wordVolatile(slot), target);
    }

    /**
     * {@code word >= target} in wrapping order.
     *
     * @param word the word
     * @param target the value that means done
     * @return whether {@code word} is at or past {@code target} in wrapping order
     */
    public static boolean reached(long word, long target) {
        return word - target >= 0;
    }

    @Override
    public String toString() {
        return line.name() + "[" + slot.index() + "]>=" + Long.toUnsignedString(target);
    }
}
