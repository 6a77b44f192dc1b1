package dev.gpureactor.loader;

import java.lang.management.ManagementFactory;

/**
 * Whether this library may call restricted FFM methods without the JDK printing its "A restricted
 * method ... has been called" warning: its module has native access ({@code --enable-native-access},
 * the jar manifest's {@code Enable-Native-Access}), or the JVM allows native access to all
 * ({@code --illegal-native-access=allow}). Probed once per process.
 *
 * <p>Without it the features that are only optimisations do not load native code: the hardware word
 * wait ({@code park.WordWait.probe()}) and the parkers' timer slack ({@code park.TimerSlack}). A backend the user
 * asked for (CUDA, HIP, Metal) loads its driver regardless, and the JDK then warns as it should.
 */
public final class NativeAccess {
    private static final boolean GRANTED = probe();

    private NativeAccess() {}

    /** Whether restricted methods run here without the JDK's warning. */
    public static boolean granted() { return GRANTED; }

    /** The flag that grants it, in the form this library's module needs. */
    public static String flag() {
        Module m = NativeAccess.class.getModule();
        return "--enable-native-access=" + (m.isNamed() ? m.getName() : "ALL-UNNAMED");
    }

    /** Why an optional native feature is off where {@link #granted()} is false, naming the flag. */
    public static String why() {
        return "native access is not enabled: add " + flag() + " to the java command";
    }

    private static boolean probe() {
        if (NativeAccess.class.getModule().isNativeAccessEnabled()) return true;
        try {
            // --illegal-native-access=allow runs restricted methods silently, but Module does not say so.
            return ManagementFactory.getRuntimeMXBean().getInputArguments().contains("--illegal-native-access=allow");
        } catch (RuntimeException | LinkageError e) {
            return false; // no java.management in this runtime: the module's answer stands
        }
    }
}
