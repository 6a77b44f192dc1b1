package dev.gpureactor.core;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.BiConsumer;

/**
 * One 64-byte, 64-byte-aligned line of eight 64-bit words that devices store sequence numbers into,
 * behind their work. It is to GPU completion what a file descriptor is to I/O readiness.
 *
 * <p><b>Memory ordering.</b> A device writes its payload, then stores the word with release
 * semantics; {@link #word} is an acquire load, so a reader that sees the new value also sees the
 * payload. {@link #wordVolatile} is the sequentially consistent load used as the second half of a
 * waiter's register-then-recheck (the Dekker pair that prevents a lost wakeup). Every access goes
 * through these atomics: nothing reads the line with plain loads.
 *
 * <p><b>Why one line.</b> A CPU monitor (x86 {@code umonitor}/{@code monitorx}, aarch64 {@code ldxr})
 * covers the whole 64-byte line, so any store to any word wakes one parked thread, which can then
 * watch up to eight streams.
 *
 * <p><b>Lifetime.</b> A line either owns its memory (allocated in its own shared {@link Arena}) or
 * wraps memory someone else owns (a driver's device-mapped page), with a release action run on
 * {@link #close()}. After close every access fails with {@link ErrorCode#LineClosed}; memory is
 * never read after it is freed. {@code close} is idempotent.
 *
 * <p><b>Why reads after close cannot touch freed memory.</b> The segment always belongs to a shared
 * arena (the line's own, or the owner's for a wrapped line) that the release closes before the
 * memory is freed. {@code closed} is only the fast path: a reader that passed the flag before close
 * and reads while the arena closes gets {@link IllegalStateException} from the access itself (the
 * shared arena's close handshake), which becomes {@code LineClosed}; a segment taken from {@link
 * #segment()} before close fails the same way afterwards. A native park that holds the segment
 * keeps the arena open for the length of its call; the release waits it out ({@link ArenaRelease})
 * and frees nothing until the arena is closed.
 */
public final class CompletionLine implements AutoCloseable {
    /** Words per line. */
    public static final int WORDS = 8;
    /** Bytes per line, and the required alignment. */
    public static final long BYTES = 64;

    /** How long closing an allocated line waits for a native park that holds its memory. */
    public static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);

    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final AtomicLong IDS = new AtomicLong();
    private static final System.Logger LOG = System.getLogger("dev.gpureactor.core");

    private final MemorySegment segment;
    private final String name;
    private final Runnable release;
    /**
     * Run once each on close, and dropped as they run. Listener against close: a listener is added
     * (a volatile array store), then {@code closed} is read (volatile); close writes {@code closed},
     * then reads the array. One of the two sees the other, and whoever runs a listener first removes
     * it, so it runs exactly once (jcstress OnCloseStress).
     */
    private final List<Runnable> closeListeners = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /**
     * Whether {@code onClose} skips its re-read of {@code closed}: true only for a negative control's line
     * ({@link Controls}); a plain field, so that a snapshot of the line reaches no record's statics.
     */
    private final boolean skipsRecheck;

    /**
     * The line of {@code onClose}'s handshake that a jcstress negative control removes, given at the
     * line's construction. {@link #NONE}, every line the library makes, changes nothing.
     *
     * @param skipsRecheck {@code onClose} does not re-read {@code closed} after its add ({@code OnCloseNegativeControl})
     */
    record Controls(boolean skipsRecheck) {
        /** Changes nothing. */
        static final Controls NONE = new Controls(false);
    }

    private CompletionLine(MemorySegment segment, String name, Runnable release, Controls controls) {
        this.segment = segment;
        this.name = name;
        this.release = release;
        this.skipsRecheck = controls.skipsRecheck();
    }

    /**
     * {@return a fresh line reading all zero, in memory it owns and frees on {@link #close()}; a leak (see {@link
     * #allocate(Duration, Consumer)}) is logged at WARNING to {@code dev.gpureactor.core}}
     */
    public static CompletionLine allocate() {
        return allocate(CLOSE_LIMIT, w -> LOG.log(System.Logger.Level.WARNING, w.message()));
    }

    /**
     * {@return a fresh line reading all zero, in memory it owns} {@link #close()} frees it once no thread can
     * touch it: it waits up to {@code closeLimit} for a native park that holds the memory to return; should one
     * still hold it then, the memory is leaked (never freed under the park) with the coded warning {@link
     * ErrorCode#LineLeaked} to {@code warnings}. A zero limit tries the close once.
     *
     * @param closeLimit the close limit
     * @param warnings where coded warnings go
     * @throws ReactorException {@link ErrorCode#InvalidArgument} when {@code closeLimit} is negative
     *     or longer than {@link Durations#MAX}
     */
    public static CompletionLine allocate(Duration closeLimit, Consumer<Warning> warnings) {
        Objects.requireNonNull(closeLimit, "closeLimit");
        Durations.nonNegativeNanos("closeLimit", closeLimit);
        Objects.requireNonNull(warnings, "warnings");
        Arena arena = Arena.ofShared();
        MemorySegment seg = arena.allocate(BYTES, BYTES);
        String name = "line-" + IDS.incrementAndGet();
        return new CompletionLine(seg, name, () -> {
            if (!ArenaRelease.close(arena, closeLimit)) {
                warnings.accept(Warning.of(ErrorCode.LineLeaked, name,
                        "a native call still held its memory after " + closeLimit + ", so it stays allocated"));
            }
        }, Controls.NONE);
    }

    /**
     * {@return a line over memory someone else owns (a driver's mapped page)} {@code release} runs once, on close,
     * after the line has stopped reading; it is where the owner frees the memory, if it may. The segment should
     * belong to a shared arena that {@code release} closes (with {@link ArenaRelease}) before it frees the memory,
     * so that a reader racing the close, or a segment taken before it, fails instead of reading freed memory.
     * Parkers read it from their own threads: over a segment confined to one thread, every wait fails coded.
     *
     * @param segment the memory
     * @param name the name
     * @param release releases it
     * @throws ReactorException {@link ErrorCode#BadLineSegment} when the segment is smaller than 64
     *     bytes or its address is not 64-byte aligned
     */
    public static CompletionLine wrap(MemorySegment segment, String name, Runnable release) {
        return wrap(segment, name, release, Controls.NONE);
    }

    /** Tests: {@link #wrap(MemorySegment, String, Runnable)} with the handshake line {@code controls} changes. */
    static CompletionLine wrap(MemorySegment segment, String name, Runnable release, Controls controls) {
        Objects.requireNonNull(controls, "controls");
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(release, "release");
        long addr = segment.address();
        if (!segment.isNative()) throw new ReactorException(ErrorCode.BadLineSegment, segment.byteSize(), "heap memory");
        if (segment.byteSize() < BYTES || (addr & (BYTES - 1)) != 0) {
            throw new ReactorException(ErrorCode.BadLineSegment, segment.byteSize(), addr == 0 ? "null" : Long.lowestOneBit(addr));
        }
        return new CompletionLine(segment.asSlice(0, BYTES), name, release, controls);
    }

    /**
     * Acquire load of a slot's word: a reader that sees a value sees what the writer wrote before it.
     *
     * @param slot the slot
     * @return the word's value
     */
    public long word(Slot slot) {
        try {
            return (long) WORD.getAcquire(live("read"), slot.offset());
        } catch (IllegalStateException closedUnderUs) {
            throw closed("read");
        }
    }

    /**
     * Sequentially consistent load: the re-check half of register-then-recheck.
     *
     * @param slot the slot
     * @return the word's value
     */
    public long wordVolatile(Slot slot) {
        try {
            return (long) WORD.getVolatile(live("read"), slot.offset());
        } catch (IllegalStateException closedUnderUs) {
            throw closed("read");
        }
    }

    /**
     * Release store of a slot's word: what the caller wrote before is visible to an acquiring reader.
     *
     * @param slot the slot
     * @param value the value
     */
    public void store(Slot slot, long value) {
        MemorySegment m = live("store");
        try {
            WORD.setRelease(m, slot.offset(), value);
        } catch (IllegalStateException closedUnderUs) {
            throw closed("store");
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // Asked only after the JDK refused: the store itself stays one release write.
            if (m.isReadOnly()) throw new ReactorException(ErrorCode.InvalidArgument, "line " + name, "read-only memory", "a writable segment to store into");
            throw e;
        }
    }

    /** {@return all eight words, each by an acquire load} */
    public long[] snapshot() {
        long[] w = new long[WORDS];
        for (int i = 0; i < WORDS; i++) w[i] = word(Slot.of(i));
        return w;
    }

    /** {@return the line's memory, for native parks and device-side stores} Never read it with plain loads. */
    public MemorySegment segment() {
        return live("access");
    }

    /**
     * The line's name, as in its errors and JFR events.
     *
     * @return the name
     */
    public String name() { return name; }

    /**
     * Whether {@link #close()} has begun, or the memory of a {@linkplain #wrap wrapped} line went away
     * under it (its owner closed the arena): either way its reads and stores throw
     * {@link ErrorCode#LineClosed}.
     *
     * @return true once closing or closed, or once the memory's arena is closed
     */
    public boolean isClosed() { return closed || !segment.scope().isAlive(); }

    /**
     * Runs {@code listener} once when the line closes (at once if it already has). The parker uses it
     * to fail the line's waiters with {@link ErrorCode#LineClosed}.
     *
     * @param listener the listener
     */
    public void onClose(Runnable listener) {
        closeListeners.add(Objects.requireNonNull(listener, "listener"));
        if (skipsRecheck) return; // negative control: the re-check below, removed
        if (closed && closeListeners.remove(listener)) listener.run();
    }

    /**
     * Runs {@code action} with {@code owner} and this line once when the line closes, while
     * {@code owner} is still reachable: the line holds the owner weakly, so a reactor that closed
     * and was dropped is not kept alive by a line that outlives it. {@code action} must not capture
     * {@code owner} (a method reference like {@code Owner::lineClosed} does not). Entries whose
     * owner was collected are dropped when the next one is added.
     *
     * @param <O> the outcome's type
     * @param owner the owner
     * @param action what to run
     */
    public <O> void onClose(O owner, BiConsumer<? super O, CompletionLine> action) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(action, "action");
        closeListeners.removeIf(l -> l instanceof OwnedListener<?> o && o.owner.refersTo(null));
        onClose(new OwnedListener<>(new WeakReference<>(owner), action, this));
    }

    /** A close listener that holds its owner weakly (see {@link #onClose(Object, BiConsumer)}). */
    private record OwnedListener<O>(WeakReference<O> owner, BiConsumer<? super O, CompletionLine> action, CompletionLine line)
            implements Runnable {
        @Override
        public void run() {
            O o = owner.get();
            if (o != null) action.accept(o, line);
        }
    }

    /**
     * Closes the line: listeners run first, then the memory is released. A second close does nothing.
     * A listener that throws stops neither the other listeners nor the release; the first throwable
     * is rethrown after them, with any later ones suppressed.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        Throwable first = null;
        for (Runnable l : closeListeners) {
            if (!closeListeners.remove(l)) continue;
            try {
                l.run();
            } catch (Throwable t) {
                if (first == null) first = t; else first.addSuppressed(t);
            }
        }
        try {
            release.run();
        } catch (Throwable t) {
            if (first == null) first = t; else first.addSuppressed(t);
        }
        if (first instanceof RuntimeException r) throw r;
        if (first instanceof Error e) throw e;
        if (first != null) throw new IllegalStateException(first);
    }

    @Override
    public String toString() { return name + (closed ? " (closed)" : ""); }

    private MemorySegment live(String op) {
        if (closed) throw closed(op);
        return segment;
    }

    private ReactorException closed(String op) {
        return new ReactorException(ErrorCode.LineClosed, name, op);
    }
}
