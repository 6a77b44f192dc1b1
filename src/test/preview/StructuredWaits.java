import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.TimeUnit;

/**
 * StructuredTaskScope (a preview API in JDK 25) over a reactor: the subtasks run on the reactor's
 * thread factory and join GpuFutures; cancelling the scope (a failing subtask, or the owner
 * interrupted) cancels the pending waits. Run by StructuredConcurrencyTest in a child JVM with
 * {@code --enable-preview --source 25}, so that preview stays out of the library's own build.
 * Prints one "ok: ..." line per checked case; any failure is an exception and a non-zero exit.
 *
 * <p>The pattern: a scope's cancel interrupts its subtasks, and an interrupted {@code join} ends only
 * that caller's wait (the future stays pending, as with FutureTask). A subtask that owns its wait
 * cancels it on the way out: {@link #joinOwned}.
 */
public class StructuredWaits {
    /** Joins {@code f} as a subtask that owns the wait: if the subtask is interrupted (its scope was cancelled), the wait is cancelled too. */
    static <T> T joinOwned(GpuFuture<T> f) {
        try {
            return f.join();
        } catch (ReactorException e) {
            if (e.code() == ErrorCode.Interrupted) f.cancel(false);
            throw e;
        }
    }

    public static void main(String[] args) throws Exception {
        try (GpuReactor reactor = GpuReactor.builder().jmx(false).build(); SimDevice device = SimDevice.open()) {
            allSucceed(reactor, device);
            aFailingSubtaskCancelsThePendingWaits(reactor, device);
            anInterruptedOwnerCancelsThePendingWaits(reactor, device);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    private static GpuFuture<Integer> heldWait(GpuReactor reactor, SimDevice device, CountDownLatch gate, int value) {
        SimStream s = device.stream();
        s.hold(gate);
        SimStream.Signal sig = s.signal();
        return reactor.await(sig.descriptor(), sig.port(), () -> value);
    }

    static void allSucceed(GpuReactor reactor, SimDevice device) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        GpuFuture<Integer> a = heldWait(reactor, device, gate, 1), b = heldWait(reactor, device, gate, 2);
        try (var scope = StructuredTaskScope.open(Joiner.<Integer>allSuccessfulOrThrow(),
                cf -> cf.withThreadFactory(reactor.threadFactory()))) {
            var sa = scope.fork(() -> joinOwned(a));
            var sb = scope.fork(() -> Thread.currentThread().getName().startsWith("gar-vt-") ? joinOwned(b) : -1);
            gate.countDown();
            List<Integer> got = scope.join().map(StructuredTaskScope.Subtask::get).toList();
            check(got.equals(List.of(1, 2)), "both results, in fork order, on the reactor's threads: " + got);
            check(sa.get() == 1 && sb.get() == 2, "subtask results");
        }
        System.out.println("ok: two subtasks on the reactor's thread factory joined their waits: 1, 2");
    }

    static void aFailingSubtaskCancelsThePendingWaits(GpuReactor reactor, SimDevice device) throws Exception {
        CountDownLatch never = new CountDownLatch(1); // the device work does not finish during the scope
        GpuFuture<Integer> a = heldWait(reactor, device, never, 1), b = heldWait(reactor, device, never, 2);
        CountDownLatch joining = new CountDownLatch(2);
        try (var scope = StructuredTaskScope.open(Joiner.<Integer>allSuccessfulOrThrow(),
                cf -> cf.withThreadFactory(reactor.threadFactory()))) {
            scope.fork(() -> { joining.countDown(); return joinOwned(a); });
            scope.fork(() -> { joining.countDown(); return joinOwned(b); });
            scope.fork(() -> {
                joining.await();
                throw new IllegalStateException("subtask failed");
            });
            try {
                scope.join();
                throw new AssertionError("join returned though a subtask failed");
            } catch (StructuredTaskScope.FailedException e) {
                check(e.getCause() instanceof IllegalStateException, "the failing subtask's exception: " + e.getCause());
            }
        }
        // close() waited for every subtask: each was interrupted and cancelled its wait on the way out.
        check(a.isCancelled() && b.isCancelled(), "pending waits cancelled: " + a + ", " + b);
        check(reactor.registrations() == 0 || awaitNoRegistrations(reactor), "registrations withdrawn: " + reactor.registrations());
        never.countDown();
        System.out.println("ok: a failing subtask cancelled the scope and both pending waits (CANCELLED, registrations 0)");
    }

    static void anInterruptedOwnerCancelsThePendingWaits(GpuReactor reactor, SimDevice device) throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        GpuFuture<Integer> a = heldWait(reactor, device, never, 1), b = heldWait(reactor, device, never, 2);
        CountDownLatch joining = new CountDownLatch(2);
        Throwable[] ownerSaw = new Throwable[1];
        Thread owner = reactor.startVirtualThread(() -> {
            try (var scope = StructuredTaskScope.open(Joiner.<Integer>allSuccessfulOrThrow(),
                    cf -> cf.withThreadFactory(reactor.threadFactory()))) {
                scope.fork(() -> { joining.countDown(); return joinOwned(a); });
                scope.fork(() -> { joining.countDown(); return joinOwned(b); });
                scope.join();
            } catch (Throwable t) {
                ownerSaw[0] = t;
            }
        });
        check(joining.await(30, TimeUnit.SECONDS), "subtasks started");
        owner.interrupt();
        check(owner.join(java.time.Duration.ofSeconds(30)), "the owner left its scope");
        check(ownerSaw[0] instanceof InterruptedException, "the owner's join was interrupted: " + ownerSaw[0]);
        check(a.isCancelled() && b.isCancelled(), "pending waits cancelled: " + a + ", " + b);
        never.countDown();
        System.out.println("ok: an interrupted owner cancelled the scope and both pending waits");
    }

    private static boolean awaitNoRegistrations(GpuReactor reactor) throws InterruptedException {
        for (int i = 0; i < 1000 && reactor.registrations() != 0; i++) Thread.sleep(10);
        return reactor.registrations() == 0;
    }
}
