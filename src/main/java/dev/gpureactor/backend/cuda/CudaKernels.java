package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.loader.NativeLibrary;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The library's CUDA kernels ({@code native/kernels/gar_kernels.cu}), loaded from the fatbin the build
 * packs into the jar ({@value #RESOURCE}: {@code sm_90} SASS and {@code compute_90} PTX) with
 * {@code cuModuleLoadData}, and launched with {@code cuLaunchKernel}, one thread each:
 *
 * <ul>
 *   <li>{@link #spin}: {@code gar_spin_ns}, which runs for the given nanoseconds of the GPU's
 *       {@code %globaltimer}: work of a known length for a wait to await.
 *   <li>{@link #writeByte}: {@code gar_write_byte}, which writes a payload byte and fences it
 *       system-wide before the stream's next operation (the completion store).
 * </ul>
 *
 * <p>The module belongs to the context current on the loading thread; launch on streams of that
 * context. {@link #close()} unloads it (after the streams that ran its kernels finished). A driver that
 * refuses the image ({@code CUDA_ERROR_NO_BINARY_FOR_GPU}: a GPU older than {@code sm_90}, or a driver
 * too old to JIT {@code compute_90} PTX) is a coded {@code Backend} error that says what would run.
 */
public final class CudaKernels implements AutoCloseable {
    /** Where the build puts the fatbin (nvcc present); the jar has none when it was built without nvcc. */
    public static final String RESOURCE = "native/kernels/gar_kernels.fatbin";
    /** The entry points kernels need. */
    public static final List<String> REQUIRED = List.of("cuModuleLoadData", "cuModuleGetFunction", "cuLaunchKernel", "cuModuleUnload");

    static final String SPIN = "gar_spin_ns";
    static final String WRITE_BYTE = "gar_write_byte";

    private final CudaDriver cuda;
    private final long module;
    private final long spin;
    private final long writeByte;
    private volatile boolean closed;

    private CudaKernels(CudaDriver cuda, long module, long spin, long writeByte) {
        this.cuda = cuda;
        this.module = module;
        this.spin = spin;
        this.writeByte = writeByte;
    }

    /**
     * Loads the jar's fatbin into the current context.
     *
     * @param cuda the CUDA driver
     * @return the loaded kernels
     * @throws ReactorException {@code NativeUnavailable} when the jar has no fatbin (built without nvcc)
     *     or the driver lacks an entry point; {@code Backend} when the driver refuses the image
     */
    public static CudaKernels load(CudaDriver cuda) {
        return load(cuda, jarImage());
    }

    /** {@return the jar's fatbin} */
    public static byte[] jarImage() {
        try (InputStream in = CudaKernels.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw NativeLibrary.unavailable(RESOURCE, "the jar has no kernel fatbin (it was built without nvcc; "
                        + "build with the CUDA toolkit's nvcc on PATH, CUDA_HOME or NVCC)", null);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw NativeLibrary.unavailable(RESOURCE, "cannot read it: " + e, e);
        }
    }

    /**
     * Loads {@code image} (a fatbin or cubin holding both kernels) into the current context.
     *
     * @param cuda the CUDA driver
     * @param image the image
     * @return the loaded kernels
     */
    public static CudaKernels load(CudaDriver cuda, byte[] image) {
        Objects.requireNonNull(cuda, "cuda");
        Objects.requireNonNull(image, "image");
        cuda.require(REQUIRED);
        cuda.ensureInitialized();
        long module;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int rc = CudaRaw.cuModuleLoadData(cuda, out, a.allocateFrom(JAVA_BYTE, image)); // the driver copies the image
            if (rc == CudaRaw.CUDA_ERROR_NO_BINARY_FOR_GPU) throw noBinary(cuda, rc);
            cuda.check("cuModuleLoadData", rc);
            module = out.get(ADDRESS, 0).address();
        }
        try {
            return new CudaKernels(cuda, module, function(cuda, module, SPIN), function(cuda, module, WRITE_BYTE));
        } catch (RuntimeException e) {
            int rc = CudaRaw.cuModuleUnload(cuda, MemorySegment.ofAddress(module));
            if (rc != CudaRaw.CUDA_SUCCESS) e.addSuppressed(cuda.failure("cuModuleUnload", rc));
            throw e;
        }
    }

    private static ReactorException noBinary(CudaDriver cuda, int rc) {
        return new ReactorException(ErrorCode.Backend, "cuda", "cuModuleLoadData", rc, cuda.errorName(rc),
                cuda.errorString(rc) + ": the kernel image holds sm_90 code and compute_90 PTX only; this GPU needs code for its "
                        + "own architecture (rebuild native/kernels with nvcc -gencode for it) or a driver recent enough to "
                        + "JIT-compile compute_90 PTX");
    }

    private static long function(CudaDriver cuda, long module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            cuda.check("cuModuleGetFunction(" + name + ")", CudaRaw.cuModuleGetFunction(cuda, out, MemorySegment.ofAddress(module), a.allocateFrom(name)));
            return out.get(ADDRESS, 0).address();
        }
    }

    /**
     * Queues {@code gar_spin_ns(nanos)}: the stream is busy for {@code nanos} of GPU time.
     *
     * @param stream the stream
     * @param nanos the time in nanoseconds
     */
    public void spin(CuStream stream, long nanos) {
        if (nanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "nanos", nanos, ">= 0");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ns = a.allocateFrom(JAVA_LONG, nanos);
            launch(SPIN, spin, stream, a, ns);
        }
    }

    /**
     * Queues {@code gar_write_byte(deviceAddress, value)}: one payload byte, fenced system-wide.
     *
     * @param stream the stream
     * @param deviceAddress the device address
     * @param value the value
     */
    public void writeByte(CuStream stream, long deviceAddress, byte value) {
        try (Arena a = Arena.ofConfined()) {
            launch(WRITE_BYTE, writeByte, stream, a, a.allocateFrom(JAVA_LONG, deviceAddress), a.allocateFrom(JAVA_BYTE, value));
        }
    }

    /** One block of one thread; {@code args} are the parameter values, passed as {@code void **kernelParams}. */
    private void launch(String name, long function, CuStream stream, Arena a, MemorySegment... args) {
        Objects.requireNonNull(stream, "stream");
        if (closed) throw new ReactorException(ErrorCode.ShutDown, "the CUDA kernel module");
        MemorySegment params = a.allocate(ADDRESS, args.length);
        for (int i = 0; i < args.length; i++) params.setAtIndex(ADDRESS, i, args[i]);
        // cuLaunchKernel copies the parameter values before it returns: the arena may close after it.
        cuda.check("cuLaunchKernel(" + name + ")", CudaRaw.cuLaunchKernel(cuda, MemorySegment.ofAddress(function), 1, 1, 1, 1, 1, 1, 0,
                stream.segment(), params, MemorySegment.NULL));
    }

    /** Unloads the module; every stream that ran one of its kernels must have finished. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.check("cuModuleUnload", CudaRaw.cuModuleUnload(cuda, MemorySegment.ofAddress(module)));
    }
}
