package dev.gpureactor.demo;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What {@code gar demo} runs on: the one thing the demo needs from a device is "a signal that
 * completes after {@code d} of work", made on one of its streams. The simulated device, CUDA and
 * HIP each answer it their own way; the demo's FILL round and its many-waiters run are written
 * once, against this.
 */
public interface DemoDevice extends AutoCloseable {
    /** The backends {@code --backend} accepts. */
    List<String> BACKENDS = List.of("sim", "cuda", "hip");

    /**
     * What to await.
     *
     * @param payload the value the work wrote, read back once the word is reached (null without a payload)
     * @param workDone when the work before the store ended, in {@link System#nanoTime()} (null without a payload)
     */
    record Signal(MemoryDescriptor descriptor, CompletionPort port, IntSupplier payload, LongSupplier workDone) {}

    /** A stream of the device: what is queued on it runs in order. */
    interface Stream {
        /** Queues work ending {@code work} after this call, a write of {@code payload}, then the store. */
        Signal signal(Duration work, int payload);

        /** Queues work ending {@code work} after this call (nothing for zero), then the store. */
        Signal signal(Duration work);
    }

    /** {@code n} fresh streams. */
    List<Stream> streams(int n);

    /** What the device is and what its "work" is, for the header; empty for the simulated device. */
    List<String> description();

    /** How the FILL lines name the moment {@link Signal#workDone()} measured. */
    String workDoneLabel();

    @Override
    void close();

    /**
     * The device of a {@code --backend}; the driver's warnings go to {@code warnings}.
     *
     * @throws ReactorException {@code InvalidArgument} for another name; {@code NativeUnavailable}
     *     naming the library (or a symbol) when the driver is missing; {@code Backend} when it cannot run
     */
    static DemoDevice open(String backend, Consumer<Warning> warnings) {
        return switch (backend) {
            case "sim" -> new Sim(SimDevice.open());
            case "cuda" -> DriverDemoDevice.cuda(warnings);
            case "hip" -> DriverDemoDevice.hip(warnings);
            default -> throw new ReactorException(ErrorCode.InvalidArgument, "backend", backend, String.join(", ", BACKENDS));
        };
    }

    /** The simulated device: a CPU thread per stream that "computes" for the given time, then stores. */
    final class Sim implements DemoDevice {
        private final SimDevice device;

        Sim(SimDevice device) {
            this.device = device;
        }

        @Override
        public List<Stream> streams(int n) {
            List<Stream> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                SimStream s = device.stream();
                out.add(new Stream() {
                    @Override
                    public Signal signal(Duration work, int payload) {
                        int[] value = new int[1];
                        long[] storedAt = new long[1];
                        s.compute(work, () -> value[0] = payload).compute(Duration.ZERO, () -> storedAt[0] = System.nanoTime());
                        SimStream.Signal sig = s.signal();
                        return new Signal(sig.descriptor(), sig.port(), () -> value[0], () -> storedAt[0]);
                    }

                    @Override
                    public Signal signal(Duration work) {
                        if (!work.isZero()) s.compute(work);
                        SimStream.Signal sig = s.signal();
                        return new Signal(sig.descriptor(), sig.port(), null, null);
                    }
                });
            }
            return out;
        }

        @Override
        public List<String> description() { return List.of(); }

        @Override
        public String workDoneLabel() { return "store at"; }

        @Override
        public void close() { device.close(); }
    }
}
