package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.hip.raw.HipRaw;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A library that loads but lacks the HIP entry points (the CUDA stand-in, which exports none of
 * them): loading succeeds and says what is missing, and every use is the coded
 * {@link ErrorCode#NativeUnavailable} naming the library and the symbol, before anything is
 * allocated; never an {@link UnsatisfiedLinkError} or a crash.
 */
class HipMissingSymbolTest {
    @Test
    void a_library_without_the_hip_symbols_is_native_unavailable_naming_each() {
        String path = Standin.library(Standin.CUDA);
        HipRuntime hip = HipRuntime.load(path);
        assertTrue(hip.missing().containsAll(HipRuntime.LINE_FUNCTIONS), hip.missing().toString());

        ReactorException init = assertThrows(ReactorException.class, () -> HipRaw.hipInit(hip, 0));
        assertEquals(ErrorCode.NativeUnavailable, init.code());
        assertEquals(path, init.args().getFirst());
        assertTrue(init.getMessage().contains("hipInit"), init.getMessage());

        ReactorException line = assertThrows(ReactorException.class, () -> MappedLine.create(hip));
        assertEquals(ErrorCode.NativeUnavailable, line.code());
        assertTrue(line.getMessage().contains(path), line.getMessage());
        for (String symbol : HipRuntime.LINE_FUNCTIONS) assertTrue(line.getMessage().contains(symbol), symbol + " in " + line.getMessage());
    }
}
