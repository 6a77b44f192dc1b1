package dev.gpureactor.loader;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Loads native libraries through FFM without ever loading code from a place someone else could write.
 *
 * <p><b>Jar libraries</b> ({@link #extract}) live in the jar under {@code native/<os>-<arch>/}, each with
 * a {@code .sha256} written by the build. They are copied into a private directory,
 * {@code <base>/<first 16 hex digits of the hash>/}, where {@code base} is by default
 * {@code $XDG_RUNTIME_DIR/gpu-async-reactor} (a per-user tmpfs) or else
 * {@code ~/.cache/gpu-async-reactor}, or the system property {@value #CACHE_PROPERTY}.
 *
 * <p><b>Invariants.</b>
 * <ul>
 *   <li>Every directory the loader creates is mode 0700. A pre-existing directory on the way (the base, the
 *       hash directory, or any ancestor of the base) that another user could write is refused with
 *       {@link ErrorCode#NativeDirUnsafe}: an ancestor may be group/other-writable only with the sticky bit
 *       (as {@code /tmp}), and every directory must belong to this user or root. Without that check a
 *       writer could swap the library between the hash check and the load.</li>
 *   <li>The file's SHA-256 is checked against the jar's {@code .sha256} right before it is loaded; a copy
 *       that does not match (a partial write, a tampered file) is replaced by a fresh one, written to a
 *       temporary file and renamed over it: a file the dynamic linker has mapped is never rewritten in
 *       place (truncating a mapped library crashes the JVM with SIGBUS).</li>
 *   <li>Every failure is a {@link ReactorException} with {@link ErrorCode#NativeUnavailable} or
 *       {@link ErrorCode#NativeDirUnsafe}; no {@link UnsatisfiedLinkError} or I/O exception escapes.</li>
 * </ul>
 *
 * <p>A loaded library stays loaded for the life of the JVM ({@link Arena#global()}): a park may be in
 * flight in it at any time, so it is never unloaded. The loader holds no state but its base directory.
 */
@SuppressWarnings("restricted") // FFM linking and library loading are this class's purpose; run with --enable-native-access
public final class NativeLoader {
    /** System property naming the base directory for extracted libraries. */
    public static final String CACHE_PROPERTY = "gar.native.cache";

    private static final String APP_DIR = "gpu-async-reactor";
    private static final int GROUP_OTHER_WRITE = 0022;
    private static final int STICKY = 01000;

    private final Path base;

    /** A loader that extracts into {@code base} (created 0700 if absent, refused if others can write it). */
    public NativeLoader(Path base) {
        this.base = Objects.requireNonNull(base, "base").toAbsolutePath().normalize();
    }

    /** The loader for {@value #CACHE_PROPERTY}, else {@code $XDG_RUNTIME_DIR}, else {@code ~/.cache}. */
    public static NativeLoader defaultLoader() {
        String prop = System.getProperty(CACHE_PROPERTY);
        if (prop != null && !prop.isBlank()) return new NativeLoader(Path.of(prop));
        String xdg = System.getenv("XDG_RUNTIME_DIR");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) return new NativeLoader(Path.of(xdg, APP_DIR));
        return new NativeLoader(Path.of(System.getProperty("user.home"), ".cache", APP_DIR));
    }

    public Path base() { return base; }

    /** {@code linux-x86_64}, {@code linux-aarch64}, ...: the jar folder of this JVM's platform. */
    public static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        os = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "macos" : os.replaceAll("[^a-z0-9]", "");
        arch = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch.replaceAll("[^a-z0-9_]", "");
        };
        return os + "-" + arch;
    }

    /** The jar resource of library {@code name} for this platform, e.g. {@code native/linux-x86_64/libgarpark.so}. */
    public static String resourceOf(String name) {
        return "native/" + platform() + "/" + System.mapLibraryName(name);
    }

    /**
     * Copies library {@code name} from the jar into its private directory (or reuses a matching copy),
     * checks its hash, and loads it.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} when the jar has no such library for
     *     this platform, its checksum does not match, or it does not load; {@link ErrorCode#NativeDirUnsafe}
     *     when a directory on the way could be written by someone else
     */
    public NativeLibrary extract(String name) {
        Objects.requireNonNull(name, "name");
        String resource = resourceOf(name);
        byte[] bytes = readResource(name, resource);
        byte[] sums = readResource(name, resource + ".sha256");
        String expected = new String(sums, StandardCharsets.US_ASCII).trim().toLowerCase(Locale.ROOT);
        String actual = sha256(bytes);
        if (!actual.equals(expected)) {
            throw unavailable(name, "the jar's " + resource + " has SHA-256 " + actual + " but its .sha256 says " + expected);
        }
        Path dir = securedBase().resolve(actual.substring(0, 16));
        ensurePrivateDir(dir);
        Path file = dir.resolve(System.mapLibraryName(name));
        try {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) || !actual.equals(sha256(Files.readAllBytes(file)))) {
                writeAtomically(dir, file, bytes);
            }
            checkPrivateFile(file);
            // The check right before the load: only this user can write dir, so what is hashed is what loads.
            String onDisk = sha256(Files.readAllBytes(file));
            if (!onDisk.equals(actual)) throw unavailable(name, file + " has SHA-256 " + onDisk + ", expected " + actual);
        } catch (IOException e) {
            throw new ReactorException(ErrorCode.NativeUnavailable, e, name, "cannot write " + file + ": " + e);
        }
        return open(name, file);
    }

    /**
     * Loads a library a user named ({@code gar.cuda.library}, {@code gar.hip.library}): a name with a
     * {@code /} is a path and gets every check of {@link #loadPath}; any other name goes to the dynamic
     * linker's own search path ({@link #loadSystem}), as a driver would. The library keeps
     * {@code pathOrName} as its name, so errors name what the user gave.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} when it is missing or does not load;
     *     {@link ErrorCode#NativeDirUnsafe} when someone else could write the file or a directory above it;
     *     {@link ErrorCode#InvalidArgument} for a blank name
     */
    public static NativeLibrary load(String pathOrName) {
        Objects.requireNonNull(pathOrName, "pathOrName");
        // A blank name would reach dlopen as "", which opens the process itself and then lacks every symbol.
        if (pathOrName.isBlank()) throw new ReactorException(ErrorCode.InvalidArgument, "library", "\"" + pathOrName + "\"", "a library's file name or path");
        if (pathOrName.indexOf('/') < 0) return loadSystem(pathOrName);
        if (!Files.exists(Path.of(pathOrName))) throw unavailable(pathOrName, "no such file");
        NativeLibrary lib = loadPath(Path.of(pathOrName));
        return new NativeLibrary(pathOrName, lib.path(), lib.lookup());
    }

    /**
     * Loads a library from an explicit path (a test's stand-in driver under {@code target/native}, say).
     * The file and its directory must not be writable by another user, as for extracted libraries.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} when the file is missing or does not
     *     load; {@link ErrorCode#NativeDirUnsafe} when someone else could write it or its directory
     */
    public static NativeLibrary loadPath(Path file) {
        Objects.requireNonNull(file, "file");
        Path abs = file.toAbsolutePath().normalize();
        String name = abs.getFileName().toString();
        if (Files.isDirectory(abs)) throw unavailable(name, abs + " is a folder, not a library file");
        if (!Files.isRegularFile(abs)) throw unavailable(name, "no such file: " + abs);
        try {
            abs = abs.toRealPath();
        } catch (IOException e) {
            throw new ReactorException(ErrorCode.NativeUnavailable, e, name, "cannot resolve " + abs + ": " + e);
        }
        ensureSafeAncestors(abs.getParent().getParent());
        checkNotWritableByOthers(abs.getParent(), false);
        checkPrivateFile(abs);
        return open(name, abs);
    }

    /**
     * Loads a system library by the name the dynamic linker knows ({@code libcuda.so.1}), from its own
     * search path (root-owned directories), as a driver would be.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} when the linker cannot load it
     */
    public static NativeLibrary loadSystem(String soname) {
        Objects.requireNonNull(soname, "soname");
        try {
            return new NativeLibrary(soname, Optional.empty(), SymbolLookup.libraryLookup(soname, Arena.global()));
        } catch (IllegalArgumentException | IllegalCallerException | UnsatisfiedLinkError e) {
            throw new ReactorException(ErrorCode.NativeUnavailable, e, soname, String.valueOf(e.getMessage()));
        }
    }

    private static NativeLibrary open(String name, Path file) {
        checkElf(name, file);
        try {
            return new NativeLibrary(name, Optional.of(file), SymbolLookup.libraryLookup(file, Arena.global()));
        } catch (IllegalArgumentException | IllegalCallerException | UnsatisfiedLinkError e) {
            throw new ReactorException(ErrorCode.NativeUnavailable, e, name, "dlopen " + file + " failed: " + e.getMessage());
        }
    }

    /**
     * On Linux, refuses what is not a 64-bit little-endian ELF shared object for this JVM's machine before
     * the dynamic linker sees it: a clear coded error instead of dlopen's, and HotSpot never takes a
     * non-ELF file for an executable-stack library (which makes it re-guard every thread's stack).
     */
    private static void checkElf(String name, Path file) {
        if (!platform().startsWith("linux-")) return;
        byte[] h = new byte[20];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(h, 0, h.length) < h.length) throw unavailable(name, file + " is not an ELF shared object (too short)");
        } catch (IOException e) {
            throw new ReactorException(ErrorCode.NativeUnavailable, e, name, "cannot read " + file + ": " + e);
        }
        if (h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') throw unavailable(name, file + " is not an ELF shared object");
        if (h[4] != 2 || h[5] != 1) throw unavailable(name, file + " is not a 64-bit little-endian ELF object");
        int type = (h[16] & 0xff) | (h[17] & 0xff) << 8;
        int machine = (h[18] & 0xff) | (h[19] & 0xff) << 8;
        if (type != 3) throw unavailable(name, file + " is an ELF object of type " + type + ", not a shared object (3)");
        int want = switch (platform()) {
            case "linux-x86_64" -> 62;   // EM_X86_64
            case "linux-aarch64" -> 183; // EM_AARCH64
            default -> machine;
        };
        if (machine != want) throw unavailable(name, file + " is built for ELF machine " + machine + ", this JVM runs on " + platform() + " (" + want + ")");
    }

    private static byte[] readResource(String name, String resource) {
        try (InputStream in = NativeLoader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw unavailable(name, "the jar has no " + resource + " (not built for " + platform() + ")");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new ReactorException(ErrorCode.NativeUnavailable, e, name, "cannot read " + resource + ": " + e);
        }
    }

    private static void writeAtomically(Path dir, Path file, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(dir, ".lib", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The base as a real path (no symbolic links left to swap), every missing directory down to it created
     * 0700, every existing ancestor checked.
     */
    private Path securedBase() {
        Path existing = base;
        Deque<Path> missing = new ArrayDeque<>();
        while (existing != null && !Files.exists(existing)) {
            missing.push(existing.getFileName());
            existing = existing.getParent();
        }
        if (existing == null) throw unsafe(base, "no part of the path exists");
        Path real;
        try {
            real = existing.toRealPath();
        } catch (IOException e) {
            throw unsafe(existing, "cannot resolve it: " + e);
        }
        if (missing.isEmpty()) {
            ensureSafeAncestors(real.getParent());
            checkNotWritableByOthers(real, false);
            return real;
        }
        ensureSafeAncestors(real);
        Path p = real;
        while (!missing.isEmpty()) {
            p = p.resolve(missing.pop().toString());
            ensurePrivateDir(p);
        }
        return p;
    }

    /** Creates {@code dir} 0700 if absent; refuses it if it is not ours alone to write. */
    private static void ensurePrivateDir(Path dir) {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            // pre-existing: checked below like any other
        } catch (NoSuchFileException e) {
            throw unsafe(dir, "its parent does not exist");
        } catch (UnsupportedOperationException e) {
            throw unsafe(dir, "the file system has no POSIX permissions to make it private");
        } catch (IOException e) {
            throw new ReactorException(ErrorCode.NativeUnavailable, e, dir.toString(), "cannot create the directory: " + e);
        }
        checkNotWritableByOthers(dir, false);
    }

    /** Every existing ancestor: this user's or root's, and not writable by others unless sticky. */
    private static void ensureSafeAncestors(Path dir) {
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.exists(p)) checkNotWritableByOthers(p, true);
        }
    }

    private static void checkPrivateFile(Path file) {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) throw unsafe(file, "not a regular file");
        checkNotWritableByOthers(file, false);
    }

    private static void checkNotWritableByOthers(Path p, boolean stickyAllowed) {
        Map<String, Object> attrs;
        try {
            attrs = Files.readAttributes(p, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            throw unsafe(p, "cannot read its owner and mode on this file system");
        } catch (IOException e) {
            throw unsafe(p, "cannot read its owner and mode: " + e);
        }
        int uid = (Integer) attrs.get("uid");
        int mode = (Integer) attrs.get("mode");
        if (Files.isSymbolicLink(p)) throw unsafe(p, "it is a symbolic link");
        long me = Posix.euid();
        if (uid != 0 && uid != me) throw unsafe(p, "it belongs to uid " + uid + ", not to this user (uid " + me + ") or root");
        if ((mode & GROUP_OTHER_WRITE) != 0 && !(stickyAllowed && (mode & STICKY) != 0)) {
            throw unsafe(p, "group or others may write it (mode 0" + Integer.toOctalString(mode & 07777) + ")");
        }
    }

    private static ReactorException unsafe(Path p, String why) {
        return new ReactorException(ErrorCode.NativeDirUnsafe, p, why);
    }

    private static ReactorException unavailable(String name, String why) {
        return new ReactorException(ErrorCode.NativeUnavailable, name, why);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /** geteuid(2) through FFM: there is no JDK API for the current uid. */
    static final class Posix {
        private static final MethodHandle GETEUID = Linker.nativeLinker().defaultLookup().find("geteuid")
            .map(a -> Linker.nativeLinker().downcallHandle(a, FunctionDescriptor.of(ValueLayout.JAVA_INT)))
            .orElse(null);

        static long euid() {
            if (GETEUID != null) {
                try {
                    return Integer.toUnsignedLong((int) GETEUID.invokeExact());
                } catch (Throwable t) {
                    // fall through to /proc
                }
            }
            try {
                return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
            } catch (IOException | RuntimeException e) {
                return -1; // unknown: only root-owned paths pass the owner check
            }
        }

        private Posix() {}
    }
}
