package dev.gpureactor.backend;

import dev.gpureactor.core.ArenaRelease;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One page-locked, device-mapped host page holding one {@link CompletionLine}, with the ownership
 * rules every vendor shares:
 *
 * <ul>
 *   <li>The line holds its own reference to its domain (the primary context of its device) from
 *       before the page is allocated until after the page is freed, so no other owner letting the
 *       context go can free the page under the line.
 *   <li>A whole page (4096 bytes) is used, so no other allocation shares the line with a device
 *       writer. The line is the first 64 bytes, zeroed before it is handed out.
 *   <li>A store is accepted only from a stream of the line's domain ({@code ForeignStream}
 *       otherwise), so closing can wait for it.
 *   <li>Closing frees the page only after every stream that was given a store settled (its status
 *       query says done); then it releases the domain. If a stream cannot settle (it failed, or is
 *       still running after the settle timeout), the page and the domain reference are leaked with
 *       the coded warning {@code LineLeaked}: never freed under a pending store.
 *   <li>The host reads the line only through the line's atomics; the device writes only the words
 *       it is told to.
 *   <li>The host's segment of the page belongs to a shared arena of the page's own, closed before the
 *       page is freed: a reader racing the close, or one holding a segment taken before it, gets
 *       {@code LineClosed} (or {@link IllegalStateException} from the segment itself), never a read of
 *       freed memory. A native park holding the segment is waited out ({@link ArenaRelease}, up to the
 *       settle timeout); should one still hold it then, the page is leaked with {@code LineLeaked}.
 * </ul>
 *
 * <p>Streams must outlive the line's close (or be {@linkplain #retire retired} first): settling
 * queries them.
 *
 * <p><b>Threads.</b> Safe to share. Stores are enqueued under a read lock, close runs under the
 * write lock, so a close never overlaps an enqueue and sees every stream that was given a store.
 */
@SuppressWarnings("restricted") // FFM: the driver's page is given a size here
public final class MappedPage {
    /** The size of the mapped allocation. */
    public static final long PAGE_BYTES = 4096;

    private enum State { LIVE, FREED, LEAKED }

    private static final long FIRST_BACKOFF_NANOS = 10_000;
    private static final long MAX_BACKOFF_NANOS = 1_000_000;

    private final LineDriver driver;
    private final LineDriver.Domain domain;
    private final long host;
    private final long device;
    private final LineOptions options;
    /** Owns the host segment's lifetime (not the memory): closed, waiting out native calls, before the free. */
    private final Arena hostView = Arena.ofShared();
    private final CompletionLine line;
    private final Set<Long> streams = ConcurrentHashMap.newKeySet();
    private final List<Warning> warnings = new CopyOnWriteArrayList<>();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile State state = State.LIVE;

    private MappedPage(LineDriver driver, LineDriver.Domain domain, long host, long device, String name, LineOptions options,
                       boolean scopedView) {
        this.driver = driver;
        this.domain = domain;
        this.host = host;
        this.device = device;
        this.options = options;
        // Scoped to hostView, no cleanup action: closing it ends every host access, the driver frees.
        MemorySegment segment = scopedView
                ? MemorySegment.ofAddress(host).reinterpret(CompletionLine.BYTES, hostView, null)
                : MemorySegment.ofAddress(host).reinterpret(CompletionLine.BYTES); // negative control only: global scope
        segment.fill((byte) 0); // driver memory has no promise of zeros; the line reads 0 before any store
        VarHandle.fullFence();
        this.line = CompletionLine.wrap(segment, name, this::release);
    }

    /**
     * Retains the calling thread's domain, allocates and maps the page, and wraps its first 64 bytes
     * as a line named {@code name}. On any failure everything acquired so far is given back.
     *
     * @param driver the driver
     * @param name the name
     * @param options the options
     * @return the page
     */
    public static MappedPage create(LineDriver driver, String name, LineOptions options) {
        return create(driver, name, options, true);
    }

    /**
     * {@link #create(LineDriver, String, LineOptions)}; {@code scopedView} false gives the host view
     * global scope, which lets a reader race the free: only the jcstress negative control
     * {@code MappedPageCloseNegativeControl} passes false.
     */
    static MappedPage create(LineDriver driver, String name, LineOptions options, boolean scopedView) {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        LineDriver.Domain domain = driver.retainDomain();
        try {
            long token = driver.enter(domain);
            long host = 0;
            try {
                host = driver.allocPage(PAGE_BYTES);
                long device = driver.devicePointer(host);
                return new MappedPage(driver, domain, host, device, name, options, scopedView);
            } catch (RuntimeException e) {
                if (host != 0) {
                    try {
                        driver.freePage(host); // no store was ever queued into it
                    } catch (RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e;
            } finally {
                driver.exit(domain, token);
            }
        } catch (RuntimeException e) {
            try {
                driver.releaseDomain(domain);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** {@return the host view; closing it settles the streams, then frees or leaks the page} */
    public CompletionLine line() { return line; }

    /**
     * {@return the device address of the slot's word (word 0 is the page's device address)}
     *
     * @param slot the slot
     */
    public long deviceAddress(Slot slot) { return device + slot.offset(); }

    /** {@return the host address of word 0 (for diagnostics; read the line only through {@link #line()})} */
    public long hostAddress() { return host; }

    /** {@return the domain the page was allocated in} */
    public LineDriver.Domain domain() { return domain; }

    /** {@return the driver table of the page} */
    public LineDriver driver() { return driver; }

    /** {@return the page's options} */
    public LineOptions options() { return options; }

    /**
     * Queues the store of {@code value} into the slot's word behind the stream's queued work.
     *
     * @param stream the stream
     * @param slot the slot
     * @param value the value
     * @throws ReactorException {@code LineClosed} after close; {@code ForeignStream} for a stream of
     *     another domain; {@code Backend} when the driver refuses the store
     */
    public void enqueueStore(long stream, Slot slot, long value) {
        Objects.requireNonNull(slot, "slot");
        lock.readLock().lock();
        try {
            if (state != State.LIVE || line.isClosed()) {
                throw new ReactorException(ErrorCode.LineClosed, line.name(), "queue a store");
            }
            driver.checkStream(domain, stream);
            streams.add(stream); // tracked before the store exists, so close always settles it
            driver.writeValue64(stream, deviceAddress(slot), value);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Forgets a stream whose stores all ran (for example before destroying it): returns {@code true}
     * if it was settled and has left the tracked set, {@code false} if it still has work queued (it
     * stays tracked). Throws the driver's coded error for a failed stream.
     *
     * @param stream the stream
     * @return whether the stream settled and is forgotten
     */
    public boolean retire(long stream) {
        lock.writeLock().lock();
        try {
            if (!streams.contains(stream)) return true;
            int status = statusInDomain(stream);
            if (status == driver.notReady()) return false;
            if (status != 0) throw driver.failure(driver.queryCall(), status);
            streams.remove(stream);
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** {@return the streams that were given a store and not retired} */
    public Set<Long> streams() { return Set.copyOf(streams); }

    /**
     * Records a coded warning: into {@link #warnings()} and the options' sink.
     *
     * @param warning the warning
     */
    public void warn(Warning warning) {
        warnings.add(warning);
        options.warnings().accept(warning);
    }

    /** {@return the coded warnings so far} */
    public List<Warning> warnings() { return List.copyOf(warnings); }

    /** {@return whether close freed the page (after its streams settled)} */
    public boolean isFreed() { return state == State.FREED; }

    /** {@return whether close leaked the page (a stream could not settle)} */
    public boolean isLeaked() { return state == State.LEAKED; }

    private int statusInDomain(long stream) {
        long token = driver.enter(domain);
        try {
            return driver.queryStatus(stream);
        } finally {
            driver.exit(domain, token);
        }
    }

    /**
     * The line's release action: end every host access (close the host view, waiting out native
     * parks), settle the streams, then free and release the domain, or leak both.
     */
    private void release() {
        lock.writeLock().lock();
        try {
            if (state != State.LIVE) return;
            String unsettled;
            if (!ArenaRelease.close(hostView, options.settleTimeout())) {
                unsettled = "a native call still held the host's view of it after " + options.settleTimeout();
            } else {
                try {
                    unsettled = settle();
                } catch (RuntimeException e) {
                    unsettled = "settling failed: " + e.getMessage();
                }
            }
            if (unsettled != null) {
                state = State.LEAKED;
                warn(Warning.of(ErrorCode.LineLeaked, line.name(), unsettled));
                return;
            }
            RuntimeException failure = null;
            try {
                long token = driver.enter(domain);
                try {
                    driver.freePage(host);
                } finally {
                    driver.exit(domain, token);
                }
            } catch (RuntimeException e) {
                failure = e;
            }
            state = State.FREED;
            try {
                driver.releaseDomain(domain);
            } catch (RuntimeException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
            if (failure != null) throw failure;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** {@code null} when every tracked stream settled; otherwise why not. */
    private String settle() {
        Duration timeout = options.settleTimeout();
        long deadline = System.nanoTime() + Math.min(timeout.toNanos(), Long.MAX_VALUE / 4);
        boolean interrupted = false;
        long token = driver.enter(domain);
        try {
            for (long stream : streams) {
                long backoff = FIRST_BACKOFF_NANOS;
                while (true) {
                    int status = driver.queryStatus(stream);
                    if (status == 0) break;
                    if (status != driver.notReady()) {
                        return "stream 0x" + Long.toHexString(stream) + " failed with " + driver.statusName(status)
                                + ", so its queued store may still be pending";
                    }
                    if (System.nanoTime() - deadline >= 0) {
                        return "stream 0x" + Long.toHexString(stream) + " did not settle within " + timeout
                                + ", so its queued store may still be pending";
                    }
                    LockSupport.parkNanos(backoff);
                    if (Thread.interrupted()) interrupted = true; // settle anyway; the interrupt is kept
                    backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
                }
            }
            return null;
        } finally {
            driver.exit(domain, token);
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return line.name() + " (" + driver.backend() + ", " + domain + ", " + state.name().toLowerCase() + ")";
    }
}
