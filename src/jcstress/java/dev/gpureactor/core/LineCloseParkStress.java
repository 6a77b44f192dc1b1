package dev.gpureactor.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A native call holding an allocated line against {@link CompletionLine#close()}:
 * the real line, its arena and {@link ArenaRelease}. The "park" is libc's {@code bsearch} over the
 * line's segment, whose comparator reads the line's first word through the raw pointer it is given
 * (as {@code garpark_park} reads it). A {@code close} that closes the arena at once throws
 * {@link IllegalStateException} whenever the call holds the arena, and the arena is never closed.
 *
 * <p>Result: (word the native call read, or -1 when the line was already closed; 1 when close threw;
 * 1 when the arena is still open after both).
 */
@JCStressTest
@Description("A native call on an allocated line vs. close: close waits the call out, then frees; never throws, never leaks.")
@Outcome(id = "42, 0, 0", expect = ACCEPTABLE, desc = "The call ran (before or during the close), then the line was freed.")
@Outcome(id = "-1, 0, 0", expect = ACCEPTABLE, desc = "The line was closed before the call began.")
@Outcome(expect = FORBIDDEN, desc = "close threw because a native call held the line (x, 1, x: the arena leaked silently), "
        + "the arena is open after close (x, x, 1), or the native call read anything but 42: freed memory.")
@State
@SuppressWarnings("restricted")
public class LineCloseParkStress {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle BSEARCH = LINKER.downcallHandle(
            LINKER.defaultLookup().find("bsearch").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MemorySegment KEY = Arena.global().allocate(JAVA_LONG);
    private static final MemorySegment COMPARE;

    static {
        try {
            MethodHandle read = MethodHandles.lookup().findStatic(LineCloseParkStress.class, "compare",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
            COMPARE = LINKER.upcallStub(read, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The word the comparator read, per thread (the upcall runs on the actor's thread). */
    private static final ThreadLocal<long[]> SEEN = ThreadLocal.withInitial(() -> new long[1]);

    private static int compare(MemorySegment key, MemorySegment element) {
        SEEN.get()[0] = element.reinterpret(8).get(ValueLayout.JAVA_LONG, 0);
        return 0;
    }

    final CompletionLine line = CompletionLine.allocate();
    final MemorySegment segment = line.segment();

    public LineCloseParkStress() {
        line.store(Slot.of(0), 42);
    }

    @Actor
    public void park(JJJ_Result r) {
        long[] seen = SEEN.get();
        seen[0] = -1;
        try {
            MemorySegment words = line.segment();
            MemorySegment found = (MemorySegment) BSEARCH.invokeExact(KEY, words, 1L, 8L, COMPARE);
            r.r1 = found.address() == 0 ? -2 : seen[0];
        } catch (ReactorException | IllegalStateException closed) {
            r.r1 = -1; // closed before the call: LineClosed from segment(), or the downcall refused a closed segment
        } catch (Throwable t) {
            r.r1 = -3;
        }
    }

    @Actor
    public void close(JJJ_Result r) {
        try {
            line.close();
        } catch (IllegalStateException held) {
            r.r2 = 1;
        }
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        r.r3 = segment.scope().isAlive() ? 1 : 0;
    }
}
