package dev.gpureactor.parker;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

/**
 * What a port call threw, as the coded failure that ends the waits the port answers for: one form for
 * the parker's backstop query and for a thread running a plan itself. A port's exception or error is
 * the port's failure and ends only its own waits ({@link ErrorCode#Backend}, naming the call and
 * carrying what it threw; a throwable already coded keeps its code). The parker lets a
 * {@link VirtualMachineError} (out of memory, a stack overflow) go on up instead, as the JVM's trouble
 * rather than the port's; a thread running a plan codes it too, so that no other joiner waits for ever.
 */
public final class PortFault {
    private PortFault() { }

    /**
     * {@return the coded failure for {@code thrown}, thrown by the port's {@code call}}
     *
     * @param call the port method that threw ({@code query}, {@code park}, {@code arm}, {@code block})
     * @param thrown what it threw
     */
    public static ReactorException coded(String call, Throwable thrown) {
        if (thrown instanceof ReactorException coded) return coded;
        return new ReactorException(ErrorCode.Backend, thrown, "port", call, -1, thrown.getClass().getSimpleName(),
                String.valueOf(thrown.getMessage()));
    }
}
