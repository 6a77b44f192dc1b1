package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ReactorControls;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link AwaitCloseStress} and of {@link AwaitCloseNegativeControl}, written once: the
 * control differs only by the reactor's {@link ReactorControls} ({@code skipsClosedRecheck}: the
 * registrar's re-read of {@code closed} after its parker is in the map).
 */
final class AwaitCloseCase {
    /** Probed once: a reactor per sample must not re-probe the host. */
    static final HostCaps CAPS = GpuReactor.probe();

    private final CompletionLine line = Rig.line();
    private final GpuReactor reactor;
    private GpuFuture<Long> waiter;

    /** The test's case: as the library builds it. */
    AwaitCloseCase() {
        this(ReactorControls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    AwaitCloseCase(ReactorControls controls) {
        reactor = GpuReactor.builder().scheduler(Scheduler.JDK_DEFAULT).kind(ExecutorKind.GPU_REACTOR)
                .plan("flag:park_us=100,backstop_us=1000").caps(CAPS).warnings(w -> { }).controls(controls).build();
    }

    void registrar() {
        waiter = reactor.await(new MemoryDescriptor(line, Slot.of(0), 1), Rig.NEVER, () -> 1L);
    }

    void closer() {
        reactor.close();
    }

    /** Reads the outcome, then closes a parker left behind, so that its thread does not outlive the sample. */
    void arbiter(II_Result r) {
        r.r1 = outcome(waiter);
        LineParker p = reactor.parkerOf(line);
        r.r2 = p != null && p.isLive() ? 1 : 0;
        if (p != null) p.inbox.close(new ReactorException(ErrorCode.ShutDown, "jcstress cleanup"));
    }

    private static int outcome(GpuFuture<?> f) {
        int s = Rig.settled(f);
        if (s != 2) return s;
        return f.exceptionNow() instanceof ReactorException re && re.code() == ErrorCode.ShutDown ? 2 : 3;
    }
}
