package dev.gpureactor.loader;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.park.NativePark;
import dev.gpureactor.core.ReactorException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Private copies, hash checks, and the coded refusals of {@link NativeLoader}. */
class NativeLoaderTest {

    static void chmod(Path p, String perms) throws IOException {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
    }

    static String perms(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void extractsIntoFreshPrivateDirectoriesAndLoads(@TempDir Path tmp) throws IOException {
        Path base = tmp.resolve("a/b/gpu-async-reactor");
        NativeLibrary lib = new NativeLoader(base).extract(NativePark.LIBRARY);
        Path file = lib.path().orElseThrow();
        assertEquals(base.toRealPath(), file.getParent().getParent());
        assertEquals(System.mapLibraryName("garpark"), file.getFileName().toString());
        assertEquals("rwx------", perms(base));
        assertEquals("rwx------", perms(tmp.resolve("a")));
        assertEquals("rwx------", perms(file.getParent()));
        assertTrue(lib.lookup().find("garpark_park").isPresent());
        // The directory is named by the content hash.
        String hash = NativeLoader.sha256(Files.readAllBytes(file));
        assertEquals(hash.substring(0, 16), file.getParent().getFileName().toString());
    }

    @Test
    void aTamperedCopyIsReplacedBeforeLoading(@TempDir Path tmp) throws IOException {
        NativeLoader loader = new NativeLoader(tmp.resolve("cache"));
        Path file = loader.extract(NativePark.LIBRARY).path().orElseThrow();
        String good = NativeLoader.sha256(Files.readAllBytes(file));
        // Replace it (a new inode, as an attacker with write access would): rewriting the loaded file in
        // place would truncate the mapping the dynamic linker holds, which no loader can guard against.
        Path forged = Files.writeString(file.resolveSibling("forged"), "not a library");
        Files.move(forged, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        NativeLibrary again = loader.extract(NativePark.LIBRARY);
        assertEquals(file, again.path().orElseThrow());
        assertEquals(good, NativeLoader.sha256(Files.readAllBytes(file)));
        assertTrue(again.lookup().find("garpark_probe").isPresent());
    }

    @Test
    void aPreExistingBaseOthersCanWriteIsRefused(@TempDir Path tmp) throws IOException {
        Path base = Files.createDirectory(tmp.resolve("cache"));
        chmod(base, "rwxrwxrwx");
        ReactorException e = assertThrows(ReactorException.class, () -> new NativeLoader(base).extract(NativePark.LIBRARY));
        assertEquals(ErrorCode.NativeDirUnsafe, e.code());
        chmod(base, "rwxrwx---");
        assertEquals(ErrorCode.NativeDirUnsafe,
            assertThrows(ReactorException.class, () -> new NativeLoader(base).extract(NativePark.LIBRARY)).code());
    }

    @Test
    void aPreExistingHashDirectoryOthersCanWriteIsRefused(@TempDir Path tmp) throws IOException {
        NativeLoader loader = new NativeLoader(tmp.resolve("cache"));
        Path dir = loader.extract(NativePark.LIBRARY).path().orElseThrow().getParent();
        chmod(dir, "rwxrwxr-x");
        assertEquals(ErrorCode.NativeDirUnsafe, assertThrows(ReactorException.class, () -> loader.extract(NativePark.LIBRARY)).code());
    }

    @Test
    void anAncestorOthersCanWriteIsRefusedUnlessSticky(@TempDir Path tmp) throws IOException {
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        chmod(shared, "rwxrwxrwx");
        NativeLoader loader = new NativeLoader(shared.resolve("mine"));
        assertEquals(ErrorCode.NativeDirUnsafe, assertThrows(ReactorException.class, () -> loader.extract(NativePark.LIBRARY)).code());
        // With the sticky bit (as /tmp) others cannot rename or delete what is ours in it.
        Files.setAttribute(shared, "unix:mode", 01777);
        assertTrue(loader.extract(NativePark.LIBRARY).lookup().find("garpark_park").isPresent());
    }

    @Test
    void aLibraryTheJarLacksIsUnavailable(@TempDir Path tmp) {
        ReactorException e = assertThrows(ReactorException.class, () -> new NativeLoader(tmp).extract("no-such-lib"));
        assertEquals(ErrorCode.NativeUnavailable, e.code());
        assertTrue(e.getMessage().contains("not built for"), e.getMessage());
    }

    @Test
    void loadPathChecksTheFileAndItsDirectory(@TempDir Path tmp) throws IOException {
        Path good = new NativeLoader(tmp.resolve("cache")).extract(NativePark.LIBRARY).path().orElseThrow();
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        Path copy = Files.copy(good, mine.resolve("libcopy.so"));
        assertTrue(NativeLoader.loadPath(copy).lookup().find("garpark_ticks").isPresent());

        Path junk = Files.writeString(mine.resolve("libjunk.so"), "not an ELF file");
        ReactorException notElf = assertThrows(ReactorException.class, () -> NativeLoader.loadPath(junk));
        assertEquals(ErrorCode.NativeUnavailable, notElf.code());
        assertTrue(notElf.getMessage().contains("not an ELF"), notElf.getMessage());
        assertEquals(ErrorCode.NativeUnavailable,
            assertThrows(ReactorException.class, () -> NativeLoader.loadPath(mine.resolve("libnone.so"))).code());

        chmod(copy, "rw-rw-rw-");
        assertEquals(ErrorCode.NativeDirUnsafe, assertThrows(ReactorException.class, () -> NativeLoader.loadPath(copy)).code());
        chmod(copy, "rwx------");
        chmod(mine, "rwxrwxr-x");
        assertEquals(ErrorCode.NativeDirUnsafe, assertThrows(ReactorException.class, () -> NativeLoader.loadPath(copy)).code());
    }

    @Test
    void aBlankNameOrAFolderIsRefusedSayingSo(@TempDir Path tmp) {
        for (String blank : new String[] {"", " "}) {
            ReactorException e = assertThrows(ReactorException.class, () -> NativeLoader.load(blank));
            assertEquals(ErrorCode.InvalidArgument, e.code(), e.getMessage()); // not dlopen(""): the process itself
        }
        ReactorException folder = assertThrows(ReactorException.class, () -> NativeLoader.load(tmp.toString()));
        assertEquals(ErrorCode.NativeUnavailable, folder.code());
        assertTrue(folder.getMessage().contains("is a folder"), folder.getMessage());
    }

    @Test
    void loadSystemFindsLibcAndCodesAMissingLibrary() {
        assertTrue(NativeLoader.loadSystem("libc.so.6").lookup().find("getpid").isPresent());
        ReactorException e = assertThrows(ReactorException.class, () -> NativeLoader.loadSystem("libgar-does-not-exist.so.9"));
        assertEquals(ErrorCode.NativeUnavailable, e.code());
    }

    @Test
    void platformNamesTheJarFolder() {
        assertTrue(NativeLoader.platform().matches("[a-z0-9]+-[a-z0-9_]+"), NativeLoader.platform());
        assertEquals("native/" + NativeLoader.platform() + "/" + System.mapLibraryName("garpark"), NativeLoader.resourceOf("garpark"));
    }
}
