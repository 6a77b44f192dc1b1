package dev.gpureactor.host.uring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * The few libc entry points this host calls, bound once through FFM: {@code syscall} (variadic),
 * {@code mmap}, {@code munmap}, {@code close}; each captures {@code errno} so a failure can say why.
 *
 * <p>Why {@code syscall} and not liburing: no library to find or ship, and the two io_uring calls
 * are plain system calls. Every argument after the number is passed as a 64-bit {@code long}:
 * glibc's {@code syscall} moves six full registers into the kernel's argument registers, so a
 * narrower variadic argument could carry stale upper bits; the kernel truncates each to its
 * declared type, so a {@code long} carrying an {@code int} value is exact. Unused trailing
 * arguments are passed as 0, which {@code syscall} and the kernel ignore.
 *
 * <p>None of these handles is {@code Linker.Option.critical}: {@code io_uring_enter} blocks, and a
 * critical downcall would hold off safepoints for the whole sleep.
 *
 * <p>Binding happens on first use of this class. On a host where it fails (no libc symbol, an
 * architecture without known syscall numbers, native access not enabled) {@link #unavailable()}
 * says why, and nothing here is called.
 */
@SuppressWarnings("restricted")
final class Sys {
    private Sys() {}

    // errno values: identical on x86-64 and the asm-generic table aarch64 uses.
    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EFAULT = 14;
    static final int EBUSY = 16;
    static final int EINVAL = 22;
    static final int ENFILE = 23;
    static final int EMFILE = 24;
    static final int ENOSYS = 38;
    static final int ETIME = 62;
    static final int EOPNOTSUPP = 95;
    static final int ECANCELED = 125;

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 0x01;
    static final int MAP_POPULATE = 0x8000;

    /** Syscall numbers for this architecture, or null where none are known. */
    record Numbers(long ioUringSetup, long ioUringEnter) {}

    static final Numbers NR = numbers(System.getProperty("os.arch", ""));

    static Numbers numbers(String arch) {
        return switch (arch.toLowerCase(Locale.ROOT)) {
            // arch/x86/entry/syscalls/syscall_64.tbl
            case "amd64", "x86_64" -> new Numbers(425, 426);
            // include/uapi/asm-generic/unistd.h (aarch64 uses the generic table)
            case "aarch64", "arm64" -> new Numbers(425, 426);
            default -> null;
        };
    }

    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle SYSCALL;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle CLOSE;
    private static final String UNAVAILABLE;

    static {
        MethodHandle sys = null, mmap = null, munmap = null, close = null;
        String why = null;
        try {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
                why = "not Linux (" + System.getProperty("os.name") + ")";
            } else if (NR == null) {
                why = "no io_uring syscall numbers known for architecture " + System.getProperty("os.arch");
            } else {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                sys = linker.downcallHandle(find(libc, "syscall"),
                        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG,
                                JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                        Linker.Option.firstVariadicArg(1), errno);
                mmap = linker.downcallHandle(find(libc, "mmap"),
                        FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), errno);
                munmap = linker.downcallHandle(find(libc, "munmap"),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), errno);
                close = linker.downcallHandle(find(libc, "close"),
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno);
            }
        } catch (RuntimeException | LinkageError e) {
            // IllegalCallerException when native access is not enabled, UnsupportedOperationException
            // on a platform without a native linker, NoSuchElementException for a missing symbol.
            why = "cannot bind libc through FFM: " + e;
            sys = mmap = munmap = close = null;
        }
        SYSCALL = sys;
        MMAP = mmap;
        MUNMAP = munmap;
        CLOSE = close;
        UNAVAILABLE = why;
    }

    private static MemorySegment find(SymbolLookup libc, String name) {
        return libc.find(name).orElseThrow(() -> new java.util.NoSuchElementException("libc lacks " + name));
    }

    /** Why the calls cannot be made here, or empty when they can. */
    static Optional<String> unavailable() {
        return Optional.ofNullable(UNAVAILABLE);
    }

    /**
     * One reusable errno capture buffer per caller. It is confined to the thread that made it, like
     * the ring that holds it; the static helpers that may run on any thread make their own.
     */
    static MemorySegment captureBuffer(Arena arena) {
        return arena.allocate(CAPTURE);
    }

    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /** {@code syscall(nr, a..f)}: the raw result ({@code -1} on failure, errno in {@code capture}). */
    static long syscall(MemorySegment capture, long nr, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) SYSCALL.invokeExact(capture, nr, a, b, c, d, e, f);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code mmap(NULL, len, RW, SHARED|POPULATE, fd, off)}: the address, or -1 (MAP_FAILED). */
    static long mmapShared(MemorySegment capture, long len, int fd, long off) {
        try {
            MemorySegment p = (MemorySegment) MMAP.invokeExact(capture, MemorySegment.NULL, len,
                    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, off);
            return p.address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int munmap(MemorySegment capture, long addr, long len) {
        try {
            return (int) MUNMAP.invokeExact(capture, MemorySegment.ofAddress(addr), len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int close(MemorySegment capture, int fd) {
        try {
            return (int) CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The symbolic name of an errno value (positive), for messages: {@code EPERM}, or {@code errno 77}. */
    static String errnoName(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM";
            case 2 -> "ENOENT";
            case EINTR -> "EINTR";
            case 9 -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EFAULT -> "EFAULT";
            case EBUSY -> "EBUSY";
            case EINVAL -> "EINVAL";
            case ENFILE -> "ENFILE";
            case EMFILE -> "EMFILE";
            case ENOSYS -> "ENOSYS";
            case ETIME -> "ETIME";
            case EOPNOTSUPP -> "EOPNOTSUPP";
            case ECANCELED -> "ECANCELED";
            default -> "errno " + errno;
        };
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}
