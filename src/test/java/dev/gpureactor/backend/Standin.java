package dev.gpureactor.backend;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Where the stand-in drivers are: {@code gar.native.dir} (Surefire sets it to target/native). A
 * stand-in that is missing fails the test: the stand-in run is what tests the binding, so it is
 * never skipped.
 */
public final class Standin {
    public static final String CUDA = "libcuda-standin.so";
    public static final String CUDA_NO_V2 = "libcuda-standin-nov2.so";
    public static final String HIP = "libamdhip64-standin.so";

    private Standin() {}

    public static Path nativeDir() {
        String dir = System.getProperty("gar.native.dir");
        if (dir == null) fail("gar.native.dir is not set (Surefire sets it to target/native)");
        return Path.of(dir).toAbsolutePath();
    }

    /** The absolute path of a stand-in library; fails when it was not built. */
    public static String library(String name) {
        Path p = nativeDir().resolve(name);
        if (!Files.isRegularFile(p)) {
            fail("stand-in driver " + p + " was not built (native/standin/build.sh needs a C compiler); "
                    + "the backend tests cannot run without it");
        }
        return p.toString();
    }

    /** A header of native/standin/ (the tests run in the project directory). */
    public static Path header(String name) {
        Path p = Path.of(System.getProperty("user.dir"), "native", "standin", name);
        if (!Files.isRegularFile(p)) fail("missing " + p);
        return p;
    }
}
