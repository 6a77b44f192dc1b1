package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Fast waits and one slow one on the simulated device, for the wait event's threshold
 * ({@link JfrEventsTest}): in the test's JVM under a recording it starts, or in a child JVM under
 * the recording its {@code -XX:StartFlightRecording} option starts (then it prints its facts as
 * {@code key=value} lines and the JVM dumps the recording at exit).
 */
public final class JfrWaitsMain {
    /** Fast waits per run: a stream with nothing queued, so the word is stored at once. */
    static final int FAST = 20;
    /** How long the slow wait's stream is held after the await: well past the 20 ms threshold. */
    static final Duration HELD = Duration.ofMillis(40);

    private JfrWaitsMain() {}

    /** A wait as its JFR event names it. */
    record Key(String line, int slot, long target) {
        static Key of(SimStream.Signal sig) {
            return new Key(sig.descriptor().line().name(), sig.descriptor().slot().index(), sig.descriptor().target());
        }

        @Override
        public String toString() { return line + "/" + slot + "/" + target; }
    }

    /**
     * What ran: each fast wait with the time from before its await to after its join (an upper bound
     * of its event's duration, which begins in the await and ends before the join returns), and the
     * slow wait, which lasts at least {@link #HELD}.
     */
    record Waits(List<Key> fast, List<Long> fastNanos, Key slow) {
        /** The fast waits that took less than {@code nanos} end to end: a threshold of that must drop them. */
        List<Key> fasterThan(long nanos) {
            List<Key> out = new ArrayList<>();
            for (int i = 0; i < fast.size(); i++) if (fastNanos.get(i) < nanos) out.add(fast.get(i));
            return out;
        }
    }

    static Waits run() throws Exception {
        List<Key> fast = new ArrayList<>();
        List<Long> fastNanos = new ArrayList<>();
        Key slow;
        try (GpuReactor r = GpuReactor.builder().carriers(2).jmx(false).warnings(w -> {}).build();
             SimDevice dev = SimDevice.open();
             GpuExecutorService exec = r.newExecutor()) {
            SimStream quick = dev.stream();
            for (int i = 0; i < FAST; i++) {
                long t0 = System.nanoTime();
                SimStream.Signal sig = quick.signal();
                GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
                exec.submit(() -> f.join()).get();
                fastNanos.add(System.nanoTime() - t0);
                fast.add(Key.of(sig));
            }
            CountDownLatch go = new CountDownLatch(1);
            SimStream held = dev.stream().hold(go);
            SimStream.Signal sig = held.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 2);
            var joined = exec.submit(() -> f.join());
            Thread.sleep(HELD);
            go.countDown();
            joined.get();
            slow = Key.of(sig);
        }
        return new Waits(fast, fastNanos, slow);
    }

    public static void main(String[] args) throws Exception {
        Waits w = run();
        for (int i = 0; i < w.fast().size(); i++) System.out.println("fast=" + w.fast().get(i) + "/" + w.fastNanos().get(i));
        System.out.println("slow=" + w.slow());
    }
}
