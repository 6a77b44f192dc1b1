package dev.gpureactor.parker;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

/**
 * What a port call threw, as the coded failure that ends the waits the port answers for. One rule for
 * the parker's backstop query and for a thread running a plan itself: a port's exception or error is
 * the port's failure and ends only its own waits ({@link ErrorCode#Backend}, carrying it, or its own
 * code when it is already coded); only a {@link VirtualMachineError} (out of memory, a stack overflow,
 * the JVM's internal error) is the JVM's trouble, not the port's, and goes on up the caller's stack.
 */
public final class PortFault {
    private PortFault() { }

    /**
     * {@return the coded failure for {@code thrown}, thrown by the port's {@code call}}
     *
     * @param call the port method that threw ({@code query}, {@code park}, {@code arm}, {@code block})
     * @param thrown what it threw
     * @throws VirtualMachineError {@code thrown} itself, when it is one
     */
    public static ReactorException coded(String call, Throwable thrown) {
        if (thrown instanceof VirtualMachineError vme) throw vme;
        if (thrown instanceof ReactorException coded) return coded;
        return new ReactorException(ErrorCode.Backend, thrown, "port", call, -1, thrown.getClass().getSimpleName(),
                String.valueOf(thrown.getMessage()));
    }
}
