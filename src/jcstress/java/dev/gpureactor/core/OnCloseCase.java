package dev.gpureactor.core;

import org.openjdk.jcstress.infra.results.I_Result;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The body of {@link OnCloseStress} and of {@link OnCloseNegativeControl}, written once: the control
 * differs only by the line's {@link CompletionLine.Controls} (its {@code skipsRecheck}: the re-check
 * of {@code closed} after the listener is added).
 */
final class OnCloseCase {
    private final CompletionLine line;
    private final AtomicInteger runs = new AtomicInteger();

    /** The test's case: as the library builds it. */
    OnCloseCase() {
        this(CompletionLine.Controls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    OnCloseCase(CompletionLine.Controls controls) {
        line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "jcstress", () -> { }, controls);
    }

    void listen() {
        line.onClose(runs::incrementAndGet);
    }

    void close() {
        line.close();
    }

    void arbiter(I_Result r) {
        r.r1 = runs.get();
    }
}
