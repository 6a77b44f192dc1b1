package dev.gpureactor.backend;

import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.hip.HipRuntime;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user-given driver path ({@code gar.cuda.library}, {@code gar.hip.library}) goes through the one
 * native-library loader and its writable-directory checks, as the park library does.
 */
class DriverLibraryTest {
    @TempDir
    Path tmp;

    static Function<String, Object> loader(String backend) {
        return switch (backend) {
            case "cuda" -> CudaDriver::load;
            case "hip" -> HipRuntime::load;
            default -> throw new IllegalArgumentException(backend);
        };
    }

    static String standin(String backend) {
        return Standin.library(backend.equals("cuda") ? Standin.CUDA : Standin.HIP);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda", "hip"})
    void aDriverInADirectoryOthersCanWriteIsRefused(String backend) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("open-" + backend));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path lib = Files.copy(Path.of(standin(backend)), dir.resolve("libdriver-" + backend + ".so"));
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rwxr-xr-x"));
        ReactorException e = assertThrows(ReactorException.class, () -> loader(backend).apply(lib.toString()));
        assertEquals(ErrorCode.NativeDirUnsafe, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains(dir.toRealPath().toString()), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda", "hip"})
    void aDriverFileOthersCanWriteIsRefused(String backend) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("closed-" + backend));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path lib = Files.copy(Path.of(standin(backend)), dir.resolve("libwritable-" + backend + ".so"));
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rwxrwxrwx"));
        ReactorException e = assertThrows(ReactorException.class, () -> loader(backend).apply(lib.toString()));
        assertEquals(ErrorCode.NativeDirUnsafe, e.code(), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda", "hip"})
    void aMissingDriverPathIsNativeUnavailableNamingIt(String backend) {
        String path = tmp.resolve("no-such-" + backend + ".so").toString();
        ReactorException e = assertThrows(ReactorException.class, () -> loader(backend).apply(path));
        assertEquals(ErrorCode.NativeUnavailable, e.code());
        assertTrue(e.getMessage().contains("no-such-" + backend + ".so"), e.getMessage());
    }
}
