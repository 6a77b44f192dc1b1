// The CUDA kernels the library launches (gar demo --backend cuda, the CUDA tests on a GPU), built by
// native/kernels/build.sh into a fatbin (sm_90 SASS + compute_90 PTX, so newer GPUs JIT it) packed in
// the jar as native/kernels/gar_kernels.fatbin, loaded with cuModuleLoadData. The stand-in driver
// emulates each by name (native/standin/standin_cuda.c): keep the names and parameters in step.
// One thread each: they stand for the work a stream runs before the completion store.

// Runs for `ns` nanoseconds of the GPU's global timer (%globaltimer, ns since some epoch): the
// "kernel of a given length" that the demo's waits await.
extern "C" __global__ void gar_spin_ns(unsigned long long ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

// Writes one payload byte to (mapped host) memory, made visible system-wide before the stream's
// next operation (the completion store, which a reader acquires).
extern "C" __global__ void gar_write_byte(unsigned char *dst, unsigned char value) {
    *dst = value;
    __threadfence_system();
}
