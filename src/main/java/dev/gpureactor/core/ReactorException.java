package dev.gpureactor.core;

import java.util.List;
import java.util.Objects;

/**
 * The library's one exception type: an {@link ErrorCode} and its arguments as text.
 *
 * <p>The arguments are substituted only when the message is rendered, and callers branch on
 * {@link #code()}, never on the text.
 */
public final class ReactorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The code: what callers branch on. */
    private final ErrorCode code;
    /** The form's arguments, as texts. */
    private final List<String> args;

    /**
     * An exception with {@code code}'s form filled with {@code args}.
     *
     * @param code the code
     * @param args the form's arguments, in order (rendered with {@code String.valueOf})
     */
    public ReactorException(ErrorCode code, Object... args) {
        this(code, null, args);
    }

    /**
     * An exception with {@code code}'s form filled with {@code args}, caused by {@code cause}.
     *
     * @param code  the code
     * @param cause what went wrong underneath, or null
     * @param args  the form's arguments, in order (rendered with {@code String.valueOf})
     */
    public ReactorException(ErrorCode code, Throwable cause, Object... args) {
        super(null, cause);
        this.code = Objects.requireNonNull(code, "code");
        this.args = Warning.texts(args);
    }

    /**
     * The code: branch on it, never on the message.
     *
     * @return the code
     */
    public ErrorCode code() { return code; }

    /**
     * The form's arguments, as texts.
     *
     * @return an unmodifiable list
     */
    public List<String> args() { return args; }

    @Override
    public String getMessage() { return code.render(args); }

    /** {@return this error as a warning value, for a caller that decided to go on} */
    public Warning asWarning() { return new Warning(code, args); }

    /**
     * The JDK's exception for new work refused, coded: the {@code Executor} contract says
     * {@link java.util.concurrent.RejectedExecutionException}, and its cause is the coded
     * {@link ErrorCode#Rejected}, so a caller branches on the code, not on the text.
     *
     * @param what what refused (an executor, a carrier pool)
     * @param refused what it refused (a task, a virtual thread)
     * @return the exception to throw
     */
    public static java.util.concurrent.RejectedExecutionException rejection(String what, String refused) {
        ReactorException coded = new ReactorException(ErrorCode.Rejected, what, refused);
        return new java.util.concurrent.RejectedExecutionException(coded.getMessage(), coded);
    }
}
