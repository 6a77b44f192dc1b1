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

    private final ErrorCode code;
    private final List<String> args;

    public ReactorException(ErrorCode code, Object... args) {
        this(code, null, args);
    }

    public ReactorException(ErrorCode code, Throwable cause, Object... args) {
        super(null, cause);
        this.code = Objects.requireNonNull(code, "code");
        this.args = Warning.texts(args);
    }

    public ErrorCode code() { return code; }

    public List<String> args() { return args; }

    @Override
    public String getMessage() { return code.render(args); }

    /** This error as a warning value, for a caller that decided to go on. */
    public Warning asWarning() { return new Warning(code, args); }
}
