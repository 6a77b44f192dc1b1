package dev.gpureactor.host.uring;

import dev.gpureactor.core.Capability;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.ReactorException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Whether this host can run the {@link ExecutorKind#IO_URING} executor, and if not, why: the
 * {@code ioUring} entry of {@link HostCaps}. The host probes once at startup; the core never does.
 *
 * <p>The probe does what the executor will do, once, and nothing more: it opens a ring (the
 * {@code io_uring_setup} and {@code mmap} calls) and runs one 1 ns {@code IORING_OP_TIMEOUT}, which
 * must complete with {@code -ETIME}. A refusal becomes {@link Capability#missing} with the reason
 * spelled out from the errno, plus what {@code /proc/sys/kernel/io_uring_disabled} reads (0: on,
 * 1: only for the {@code kernel.io_uring_group} group or CAP_SYS_ADMIN, 2: off for everyone).
 *
 * <p>The system property {@value #DISABLE_PROPERTY}{@code =<reason>} makes the probe report
 * io_uring missing with that reason without touching the kernel, so the fallback
 * {@code io-uring → gpu-reactor} can be exercised (and forced) on any machine.
 */
@SuppressWarnings("restricted")
public final class UringProbe {
    private UringProbe() {}

    /** {@code -Dgar.uring.disable=<reason>}: report io_uring missing for this reason. */
    public static final String DISABLE_PROPERTY = "gar.uring.disable";

    /** The sysctl that switches io_uring off (Linux 6.6+; absent before). */
    public static final Path IO_URING_DISABLED = Path.of("/proc/sys/kernel/io_uring_disabled");

    /** One setup attempt: {@code errno == 0} is success; {@code errno < 0} a failure without one. */
    record Attempt(int errno, String detail) {
        static final Attempt OK = new Attempt(0, "ok");

        boolean ok() { return errno == 0; }
    }

    /** What the probe tries; the real one opens a ring, a test's refuses on demand. */
    @FunctionalInterface
    interface Setup {
        Attempt attempt();
    }

    /**
     * Probes this host: present, or missing with the reason. Cheap (about one ring setup), but call it once.
     *
     * @return whether io_uring runs here, and why not
     */
    public static Capability probe() {
        return probe(System.getProperty(DISABLE_PROPERTY), UringProbe::readDisabledSysctl, UringProbe::realSetup);
    }

    /**
     * {@code base} with its {@code ioUring} entry replaced by {@link #probe()}.
     *
     * @param base the host's capabilities as probed without io_uring
     * @return {@code base} with io_uring probed
     */
    public static HostCaps hostCaps(HostCaps base) {
        Objects.requireNonNull(base, "base");
        return new HostCaps(base.parkers(), base.carriers(), base.wordWait(), probe());
    }

    /**
     * The probe with its inputs injected: the disable property's value (or null), the sysctl
     * reader, and the setup attempt.
     */
    static Capability probe(String disabledBy, Supplier<OptionalInt> sysctl, Setup setup) {
        if (disabledBy != null) {
            return Capability.missing("disabled by -D" + DISABLE_PROPERTY + ": "
                    + (disabledBy.isBlank() ? "(no reason given)" : disabledBy));
        }
        Attempt a = setup.attempt();
        if (a.ok()) return Capability.present();
        OptionalInt disabled = sysctl.get();
        String why = a.detail();
        if (disabled.isPresent() && disabled.getAsInt() != 0) {
            why += "; kernel.io_uring_disabled = " + disabled.getAsInt()
                    + (disabled.getAsInt() == 1 ? " (only kernel.io_uring_group or CAP_SYS_ADMIN may use it)" : " (off for everyone)");
        } else if (a.errno() == Sys.EPERM && disabled.isPresent()) {
            why += "; kernel.io_uring_disabled = 0, so a seccomp filter or LSM refused it";
        }
        return Capability.missing(why);
    }

    /**
     * {@return the reason an {@code io_uring_setup} (or ring op) errno gives, in words; the name of the
     * errno is included}
     *
     * @param errno the errno
     */
    public static String reason(int errno) {
        String name = Sys.errnoName(errno);
        return switch (errno) {
            case Sys.ENOSYS -> "kernel without io_uring (" + name + ")";
            case Sys.EPERM -> "io_uring disabled (kernel.io_uring_disabled) or seccomp (" + name + ")";
            case Sys.ENOMEM -> "cannot allocate or lock the ring memory; RLIMIT_MEMLOCK may be too low (" + name + ")";
            case Sys.EMFILE, Sys.ENFILE -> "out of file descriptors (" + name + ")";
            case Sys.EINVAL -> "the kernel rejected the ring parameters (" + name + ")";
            case Sys.EFAULT -> "the kernel could not read the parameters (" + name + ")";
            default -> "refused (" + name + ")";
        };
    }

    /**
     * {@code /proc/sys/kernel/io_uring_disabled} as a number.
     *
     * @return the sysctl's value, or empty where it does not exist or does not parse
     */
    public static OptionalInt readDisabledSysctl() {
        try {
            return OptionalInt.of(Integer.parseInt(Files.readString(IO_URING_DISABLED).trim()));
        } catch (IOException | NumberFormatException | SecurityException e) {
            return OptionalInt.empty();
        }
    }

    /** Opens a ring of the executor's size and runs one 1 ns timeout, which must expire. */
    static Attempt realSetup() {
        Ring.Opened o;
        try {
            o = Ring.tryOpen(Ring.DEFAULT_ENTRIES);
        } catch (ReactorException e) {
            return new Attempt(-1, e.getMessage());
        }
        if (o.ring() == null) return new Attempt(o.errno() == 0 ? -1 : o.errno(), o.why());
        try (Ring r = o.ring()) {
            int res = r.timeout(1);
            if (res != Ring.TIMEOUT_EXPIRED) {
                return new Attempt(-1, "IORING_OP_TIMEOUT completed with " + res + " (" + Sys.errnoName(-res)
                        + "), not -ETIME");
            }
            return Attempt.OK;
        } catch (ReactorException e) {
            return new Attempt(-1, e.getMessage());
        }
    }
}
