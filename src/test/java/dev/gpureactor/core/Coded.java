package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.function.Executable;

/** Assertions on coded errors: the code is the identity, and every thrower passes as many args as its form takes. */
final class Coded {
    private Coded() {}

    /** Runs {@code body}, asserts it throws a {@link ReactorException} of {@code code} with the code's arity, and returns it. */
    static ReactorException assertCoded(ErrorCode code, Executable body) {
        ReactorException e = assertThrows(ReactorException.class, body);
        assertEquals(code, e.code(), () -> "code of: " + e.getMessage());
        assertArity(e.code(), e.args());
        return e;
    }

    /** Like {@link #assertCoded} and also checks the exact arguments. */
    static ReactorException assertCoded(ErrorCode code, List<String> args, Executable body) {
        ReactorException e = assertCoded(code, body);
        assertEquals(args, e.args(), () -> "args of: " + e.getMessage());
        return e;
    }

    static void assertArity(ErrorCode code, List<String> args) {
        assertEquals(code.arity(), args.size(), () -> code + " takes " + code.arity() + " args but got " + args);
    }
}
