package dev.gpureactor.core;

/** What {@link Declared#resolve} does when the requested value cannot run here. */
public enum Strictness {
    /** Run the first declared fallback that can, with a coded warning. The default. */
    FALLBACK,
    /** Refuse with {@link ErrorCode#ExecutorRefused}. */
    STRICT
}
