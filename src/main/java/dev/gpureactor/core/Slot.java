package dev.gpureactor.core;

/**
 * The index of one word of a {@link CompletionLine}, in {@code 0..7}, checked once when it is made.
 * A slot is typically one stream's completion word.
 *
 * @param index the index
 */
public record Slot(int index) {
    private static final Slot[] ALL = {
        new Slot(0), new Slot(1), new Slot(2), new Slot(3), new Slot(4), new Slot(5), new Slot(6), new Slot(7)
    };

    /**
     * Checks the index is within the line ({@code 0} to {@link CompletionLine#WORDS} - 1), else a coded
     * {@link ErrorCode#SlotOutOfRange}.
     */
    public Slot {
        if (index < 0 || index >= CompletionLine.WORDS) throw new ReactorException(ErrorCode.SlotOutOfRange, index);
    }

    /** {@return the slot with this index, or {@link ErrorCode#SlotOutOfRange}} */
    public static Slot of(int index) {
        if (index < 0 || index >= CompletionLine.WORDS) throw new ReactorException(ErrorCode.SlotOutOfRange, index);
        return ALL[index];
    }

    /**
     * Byte offset of this slot's word in the line.
     *
     * @return the word's byte offset in the line
     */
    public long offset() { return (long) index * Long.BYTES; }
}
