package dev.gpureactor.park;

import dev.gpureactor.loader.NativeAccess;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The calling thread's timer slack ({@code prctl(PR_SET_TIMERSLACK)}, Linux): how far the kernel may
 * delay the end of its timed sleeps to batch wake-ups. The default, 50 µs, is added to nearly every
 * {@link java.util.concurrent.locks.LockSupport#parkNanos} here; a parker thread sets 1 ns so its OS
 * sleeps end when asked (docs/PARK.md has the measured effect). Per thread: it affects only the caller.
 *
 * <p>{@code prctl} is variadic, so it is linked with {@link Linker.Option#firstVariadicArg
 * firstVariadicArg(1)} and its {@code unsigned long} argument as a 64-bit long. It is a system call, so it
 * is not linked critical. Where there is no {@code prctl} (not Linux) the methods report that instead of
 * failing; so do they where {@link NativeAccess#granted() native access} is not enabled: the slack is an
 * optimisation, not worth the JDK's restricted-method warning on a run that asked for no native code.
 */
@SuppressWarnings("restricted") // FFM linking and library loading are this class's purpose; run with --enable-native-access
public final class TimerSlack {
    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;
    private static final MethodHandle PRCTL = prctl();

    private TimerSlack() {}

    private static MethodHandle prctl() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) return null;
        if (!NativeAccess.granted()) return null; // an optimisation: not worth the JDK's restricted-method warning
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("prctl")
                .map(a -> linker.downcallHandle(a,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                    Linker.Option.firstVariadicArg(1)))
                .orElse(null);
        } catch (RuntimeException | OutOfMemoryError e) {
            // Native access denied, or no such linker: reported as unsupported. Out of memory too: a class
            // whose initializer throws never loads again, and every parker thread would die of it.
            return null;
        }
    }

    /** Whether this platform lets a thread read and set its timer slack. */
    public static boolean supported() {
        return PRCTL != null;
    }

    /** Why {@link #supported()} is false (not Linux, or no native access); empty where it is true. */
    public static String why() {
        if (PRCTL != null) return "";
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) return "not Linux";
        return NativeAccess.granted() ? "no prctl" : NativeAccess.why();
    }

    /**
     * Sets the calling thread's timer slack to {@code nanos} (0 restores the thread's default slack).
     *
     * @return whether the kernel accepted it; {@code false} where {@link #supported()} is not
     * @throws ReactorException {@link ErrorCode#InvalidArgument} for a negative value
     */
    public static boolean set(long nanos) {
        if (nanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "timer slack", nanos, ">= 0 ns");
        return PRCTL != null && call(PR_SET_TIMERSLACK, nanos) == 0;
    }

    /** The calling thread's timer slack in nanoseconds, or empty where it cannot be read. */
    public static OptionalLong current() {
        if (PRCTL == null) return OptionalLong.empty();
        int r = call(PR_GET_TIMERSLACK, 0);
        return r < 0 ? OptionalLong.empty() : OptionalLong.of(r);
    }

    private static int call(int option, long arg) {
        try {
            return (int) PRCTL.invokeExact(option, arg);
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("should not reach here", t);
        }
    }
}
