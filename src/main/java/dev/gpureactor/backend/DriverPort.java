package dev.gpureactor.backend;

import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link CompletionPort} over one driver stream and one word of a {@link MappedLine} (the whole
 * body of the CUDA and HIP ports, which only name it: {@code CudaPort}, {@code HipPort}).
 *
 * <ul>
 *   <li>{@link #query()}: the stream's status query, the <em>error authority</em>: done, pending,
 *       or a coded {@code Backend} error with the driver's error name and text.
 *   <li>{@link #block()}: the driver's blocking wait on the stream.
 *   <li>{@link #arm()}: queues the store of the target into the word behind the stream's work,
 *       once (later calls do nothing).
 *   <li>{@link #park(long)}: the {@link WordPark} on the word.
 * </ul>
 *
 * <p>In <em>query mode</em> (no line, or a device without stream memory operations) there is no
 * word: {@code arm} does nothing, and {@code park} sleeps at most {@value #QUERY_PARK_STEP_NANOS} ns
 * and answers with a query. {@link #recommendedPlan()} then says {@code poll}.
 *
 * <p>A null-stream handle names a stream only through the current context, so the port makes the
 * line's domain current around its calls on such a stream (any thread may wait on a port).
 *
 * @param <S> the vendor's stream handle
 */
public abstract class DriverPort<S extends DriverStream> implements CompletionPort {
    /** The longest sleep of a query-mode park. */
    public static final long QUERY_PARK_STEP_NANOS = 50_000;

    private final LineDriver driver;
    private final MappedPage page; // null: query mode without a line
    private final S stream;
    private final MemoryDescriptor descriptor; // null without a line
    private final WordPark park;
    private final boolean flagMode;
    private final AtomicBoolean armed = new AtomicBoolean();

    /**
     * A port on {@code line}'s word {@code slot} reaching {@code target}; it queries instead of waiting
     * on the word when the line's device takes no store ({@link MappedLine#stores()}).
     *
     * @param line the line
     * @param stream the stream
     * @param slot the slot
     * @param target the value that means done
     * @param park the park on the word
     */
    protected DriverPort(MappedLine<S, ?> line, S stream, Slot slot, long target, WordPark park) {
        this(line.page().driver(), line.page(), stream, Objects.requireNonNull(slot, "slot"), target, park,
                line.stores().usable());
    }

    /**
     * A port without a line: status by query, wait by the driver's synchronize, {@code arm} does nothing.
     * The vendors' {@code queryOnly}: it first checks that the binding has every function of {@code
     * needs}, so a driver that cannot make lines still gets this port and one that cannot query does not.
     *
     * @param driver the driver
     * @param stream the stream
     * @param needs the function names it needs
     * @throws dev.gpureactor.core.ReactorException {@code NativeUnavailable} naming what the library lacks
     */
    protected DriverPort(BoundLineDriver<?> driver, S stream, List<String> needs) {
        Objects.requireNonNull(stream, "stream");
        driver.binding.require(needs);
        this(driver, null, stream, null, 0, WordPark.spinThenPark(), false);
    }

    private DriverPort(LineDriver driver, MappedPage page, S stream, Slot slot, long target, WordPark park,
                       boolean flagMode) {
        this.driver = Objects.requireNonNull(driver, "driver");
        this.page = page;
        this.stream = Objects.requireNonNull(stream, "stream");
        this.descriptor = page == null ? null : new MemoryDescriptor(page.line(), slot, target);
        this.park = Objects.requireNonNull(park, "park");
        this.flagMode = flagMode && page != null;
    }

    @Override
    public boolean query() {
        int status = inDomain(true);
        if (status == 0) return true;
        if (status == driver.notReady()) return false;
        throw driver.failure(driver.queryCall(), status);
    }

    @Override
    public void block() throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        int status = inDomain(false);
        if (status != 0) throw driver.failure(driver.synchronizeCall(), status);
    }

    @Override
    public void arm() {
        if (!flagMode || !armed.compareAndSet(false, true)) return;
        try {
            page.enqueueStore(stream.handle(), descriptor.slot(), descriptor.target());
        } catch (RuntimeException e) {
            armed.set(false);
            throw e;
        }
    }

    @Override
    public boolean park(long boundNanos) throws InterruptedException {
        if (flagMode) return park.park(descriptor, boundNanos);
        LockSupport.parkNanos(Math.max(0, Math.min(boundNanos, QUERY_PARK_STEP_NANOS)));
        if (Thread.interrupted()) throw new InterruptedException();
        return query();
    }

    /** {@return whether the device stores into the word (flag mode), or the port only queries} */
    @Override
    public boolean storesIntoLine() { return flagMode; }

    /** {@return whether {@link #arm()} queued the store} */
    public boolean isArmed() { return armed.get(); }

    /** {@return the word this port waits on: empty without a line} */
    public Optional<MemoryDescriptor> descriptor() { return Optional.ofNullable(descriptor); }

    /** {@return the stream whose status this port queries and whose store it arms} */
    public S stream() { return stream; }

    /** {@return the raw stream handle} */
    public long streamHandle() { return stream.handle(); }

    /**
     * {@code flag} (the recommended plan) when the device stores into the word, else {@code poll}.
     *
     * @return the plan this port serves best
     */
    public WaitPlan recommendedPlan() {
        return flagMode ? WaitPlan.recommended() : new WaitPlan.QueryPoll(Optional.empty());
    }

    private int inDomain(boolean query) {
        long handle = stream.handle();
        if (page == null || !driver.implicitStream(handle)) {
            return query ? driver.queryStatus(handle) : driver.synchronizeStatus(handle);
        }
        long token = driver.enter(page.domain());
        try {
            return query ? driver.queryStatus(handle) : driver.synchronizeStatus(handle);
        } finally {
            driver.exit(page.domain(), token);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + stream
                + (descriptor == null ? ", query only" : ", " + descriptor + (flagMode ? "" : ", query mode")) + "]";
    }
}
