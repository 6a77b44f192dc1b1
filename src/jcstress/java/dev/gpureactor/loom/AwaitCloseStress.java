package dev.gpureactor.loom;

import dev.gpureactor.parker.ReactorControls;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link GpuReactor#await} (the registration path: {@code parkerFor} puts a started parker in the
 * map, {@code registerAndRecheck}, then the re-read of {@code closed}) vs {@link GpuReactor#close}
 * (write {@code closed}, then snapshot and stop the map's parkers), on a real reactor per sample:
 * the JDK's default scheduler (no carrier pool, so no carrier threads) and a real parker thread,
 * started by the registration when it comes first. The wait's word is never stored and its port is
 * never done, so only the close can end it.
 *
 * <p>Results: r1 = the future after both (0 pending, 1 completed, 2 failed ShutDown, 3 anything
 * else); r2 = a live parker is left in the reactor's map (1) or not (0).
 */
@JCStressTest
@Description("Reactor await vs close: the wait fails ShutDown and no parker outlives the reactor, whoever comes first.")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "Failed ShutDown: by the early check, by close's snapshot, or by the registrar's re-check.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the future stays PENDING for ever, its parker made after close took its snapshot and stopped by nobody.")
@State
public class AwaitCloseStress {
    /** Probed once: a reactor per sample must not re-probe the host. */
    static final HostCaps CAPS = GpuReactor.probe();

    final CompletionLine line = Rig.line();
    final GpuReactor reactor = reactor();
    GpuFuture<Long> waiter;

    static GpuReactor reactor() {
        return reactor(ReactorControls.NONE);
    }

    /** As {@link #reactor()}, with {@code controls}: a negative control's one removed line. */
    static GpuReactor reactor(ReactorControls controls) {
        return GpuReactor.builder().scheduler(Scheduler.JDK_DEFAULT).kind(ExecutorKind.GPU_REACTOR)
                .plan("flag:park_us=100,backstop_us=1000").caps(CAPS).warnings(w -> { }).controls(controls).build();
    }

    @Actor
    public void registrar() {
        waiter = reactor.await(new MemoryDescriptor(line, Slot.of(0), 1), Rig.NEVER, () -> 1L);
    }

    @Actor
    public void closer() {
        reactor.close();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = outcome(waiter);
        LineParker p = reactor.parkerOf(line);
        r.r2 = p != null && p.isLive() ? 1 : 0;
    }

    static int outcome(GpuFuture<?> f) {
        int s = Rig.settled(f);
        if (s != 2) return s;
        return f.exceptionNow() instanceof ReactorException re && re.code() == ErrorCode.ShutDown ? 2 : 3;
    }
}
