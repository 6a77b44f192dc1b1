package dev.gpureactor.loom;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Warning;
import dev.gpureactor.loader.NativeAccess;
import dev.gpureactor.park.WordWait;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A reactor's default warnings sink: each {@link ErrorCode} is logged the first time the reactor
 * raises it, through {@code System.getLogger("dev.gpureactor")} (so any logging framework with a
 * {@code System.LoggerFinder} bridge routes it; without one, java.util.logging prints it on stderr).
 * A code raised again by the same reactor is not logged again: a flaky device must not flood a log.
 * Every raise is still counted ({@link GpuReactor#warningsRaised()}) and kept up to
 * {@link GpuReactor#WARNINGS_KEPT} ({@link GpuReactor#warnings()}, the MXBean's {@code Warnings}).
 *
 * <p>Levels: {@code WARNING} for every code but {@link ErrorCode#ParkFallback}. That one says the
 * parkers use the pure-Java park, which is a supported path, not a fault: {@code DEBUG} where the CPU
 * or the platform lacks a hardware word wait (nothing the user can change), {@code INFO} where native
 * access is off on a CPU that advertises one (one flag turns the hardware park on); where the CPU's
 * flags lack it, the flag would change nothing, and it is {@code DEBUG} too.
 */
final class LoggedWarnings implements Consumer<Warning> {
    /** The logger every reactor's default sink writes to. */
    static final String LOGGER = "dev.gpureactor";

    private final String reactor;
    private final System.Logger logger;
    /** Whether enabling native access would turn the hardware park on: off now, on a CPU that advertises one. */
    private final boolean parkFlagHelps;
    /** Codes already logged; guarded by itself. */
    private final Set<ErrorCode> logged = EnumSet.noneOf(ErrorCode.class);

    /** The sink of reactor {@code reactor}, to the library's logger. */
    LoggedWarnings(String reactor) {
        this(reactor, System.getLogger(LOGGER), !NativeAccess.granted() && WordWait.cpuAdvertises());
    }

    LoggedWarnings(String reactor, System.Logger logger, boolean parkFlagHelps) {
        this.reactor = Objects.requireNonNull(reactor, "reactor");
        this.logger = Objects.requireNonNull(logger, "logger");
        this.parkFlagHelps = parkFlagHelps;
    }

    @Override
    public void accept(Warning w) {
        synchronized (logged) {
            if (!logged.add(w.code())) return;
        }
        System.Logger.Level level = levelOf(w.code());
        if (!logger.isLoggable(level)) return;
        // No parameters: the text is final, so a backend's MessageFormat never reads its braces.
        logger.log(level, "GpuReactor " + reactor + ": " + w.message()
                + " (logged once per reactor; later ones only in GpuReactor.warnings() and its MXBean)");
    }

    System.Logger.Level levelOf(ErrorCode code) {
        if (code != ErrorCode.ParkFallback) return System.Logger.Level.WARNING;
        return parkFlagHelps ? System.Logger.Level.INFO : System.Logger.Level.DEBUG;
    }
}
