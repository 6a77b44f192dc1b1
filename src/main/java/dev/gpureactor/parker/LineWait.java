package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Comparator;

/**
 * One wait as its line's parker holds it: the registration node of a future. It carries what the
 * parker's turn reads (the descriptor, the port it queries as the error authority, the estimator's
 * point and prediction, the registration order), and settles its future through three methods, the
 * node's whole view of it: {@link #signal}, {@link #fail}, {@link #isPending} (the future's own
 * node implements them; {@code GpuFuture}).
 *
 * <p>Ownership and publication. Every field but {@link #seenNanos} and the parker is final and set
 * in the future's constructor, before the future (and so this node) reaches any other thread; the
 * parker receives the node through its inbox (a {@code ConcurrentLinkedQueue} offer, a release,
 * drained with a poll, an acquire), so a turn reads the fields the registrar wrote (jcstress
 * {@code RegistrationRecheckStress} and {@code StoreAfterRegistrationStress} register on one actor
 * and scan on the other). The node never moves the future's state itself: {@link #signal} and
 * {@link #fail} are the future's CASes, so the parker and a canceller cannot both win.
 */
public abstract class LineWait {
    /** Wrapping order of targets, then registration order: a slot's set is scanned from its head up. */
    static final Comparator<LineWait> BY_TARGET = (a, b) -> {
        long d = a.descriptor.target() - b.descriptor.target();
        return d != 0 ? (d < 0 ? -1 : 1) : Long.compare(a.id, b.id);
    };

    private static final VarHandle PARKER;

    static {
        try {
            PARKER = MethodHandles.lookup().findVarHandle(LineWait.class, "parker", Removals.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Registration order (the tie-break of {@link #BY_TARGET}); negative for a wait that never started. */
    final long id;
    private final MemoryDescriptor descriptor;
    private final CompletionPort port;
    /** Where its JFR event goes: the reactor's reports, which commit it off the reactor's own threads. */
    final Reports reports;
    /** When the wait started (the estimator's residual and the JFR completion run from here). */
    final long startNanos;
    /** When the parker should be awake for this wait: start + the estimate's sleep (= start when cold). */
    final long wakeAtNanos;
    /**
     * Past {@link #wakeAtNanos} with nothing, when to look again: start + the estimate's resume sleep,
     * the work's exact floor when a late wake halved the prediction (PointEstimate.resumeSleepNanos);
     * else equal to {@link #wakeAtNanos} (watch on from the wake).
     */
    final long resumeAtNanos;
    /**
     * The point's recent spread (largest − smallest kept exact sample; 0 with one), or
     * {@link #NO_PREDICTION} when nothing predicts the store (a cold point, a plan without a deadline
     * estimate): says whether a spin past the wake pays.
     */
    final long spreadNanos;
    /** {@link #spreadNanos} of a wait that nothing predicts: it never spins (LineWatch.decide). */
    public static final long NO_PREDICTION = -1;
    /** The estimator's readback point; null for waits made outside a reactor (nothing is observed). */
    public final Object pointKey;
    /** The reactor's plan label, for the JFR wait event; null for waits made outside a reactor. */
    final String planLabel;
    /**
     * The JFR wait event, begun with the wait, or null while no recording has it on. Committed once,
     * by the thread that settles the wait (the future's terminal CAS decides which).
     */
    final WaitEvent jfr;
    /**
     * When the word was seen reached (JFR only: set by the signaller before its CAS only while the
     * wait event is enabled, else 0); read by the resolver after the acquire load that saw
     * {@code READY}, so the CAS publishes it. Two signallers race only to write about the same
     * instant, and a long write does not tear on the 64-bit JVMs this library runs on.
     */
    public long seenNanos;
    /**
     * Whether a thread that ran the plan in the parker's place gave the wait back to it
     * ({@link #revokeWithdrawal} failed, so it registers again): its intake then checks that it does
     * not hold the wait already. Written once, before that registration's offer (a release); read
     * by the parker after its poll (an acquire).
     */
    boolean givenBack;
    /**
     * The removals of the parker holding this wait, set once before the registration's offer; null while none does
     * (the naive kind, a wait that ended before it was registered). Release/acquire: a canceller or
     * a platform joiner on another thread that withdraws sees the parker the registrar set.
     */
    @SuppressWarnings("unused") // through PARKER
    private Removals parker;

    public LineWait(long id, MemoryDescriptor descriptor, CompletionPort port, long startNanos,
             long wakeAtNanos, long resumeAtNanos, long spreadNanos, Object pointKey, String planLabel, Reports reports) {
        this.id = id;
        this.reports = reports;
        this.descriptor = descriptor;
        this.port = port;
        this.startNanos = startNanos;
        this.wakeAtNanos = wakeAtNanos;
        this.resumeAtNanos = resumeAtNanos;
        this.spreadNanos = spreadNanos;
        this.pointKey = pointKey;
        this.planLabel = planLabel;
        this.jfr = WaitEvent.start();
    }

    public MemoryDescriptor descriptor() { return descriptor; }

    public CompletionPort port() { return port; }

    /** Whether the wait ever started (a future failed before it could start has no timings). */
    boolean started() { return id >= 0; }

    /** The word reached its target: the future's {@code signal} (one CAS out of {@code PENDING}). */
    public abstract boolean signal();

    /** The port or the line failed this wait: the future's {@code fail} (one CAS out of {@code PENDING}). */
    public abstract boolean fail(ReactorException error);

    /** Whether the future still waits for the device (an acquire load of its state). */
    public abstract boolean isPending();

    /** Records the removals of the parker this wait is about to be registered with; call before its offer. */
    public void heldBy(Removals p) {
        PARKER.setRelease(this, p); // release: a withdrawing thread's acquire sees it
    }

    /** Takes the registration back from its parker (an offer to its removals), if it has one; idempotent at the parker. */
    public void withdraw() {
        Removals p = (Removals) PARKER.getAcquire(this); // acquire: pairs with heldBy's release
        if (p != null) p.remove(this);
    }

    /**
     * Takes back this wait's withdrawal if its parker has not drained it ({@link Removals#revoke}):
     * true when the parker still holds it, or will at its registration's drain.
     */
    public boolean revokeWithdrawal() {
        Removals p = (Removals) PARKER.getAcquire(this); // acquire: pairs with heldBy's release
        return p != null && p.revoke(this);
    }

    /** Marks this wait as given back, before it is registered again (see {@link #givenBack}). */
    public void givenBack() {
        givenBack = true; // plain: the registration's offer publishes it
    }

    @Override
    public String toString() { return "LineWait[" + id + ", " + descriptor + "]"; }
}
