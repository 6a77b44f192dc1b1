package dev.gpureactor.host.uring;

import static dev.gpureactor.host.uring.Uapi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A ring's file descriptor and its three kernel mappings (SQ ring, CQ ring, SQE array), and how
 * they are made ({@code io_uring_setup}, then one {@code mmap} each) and unmade. With a single
 * mapping ({@code IORING_FEAT_SINGLE_MMAP}) the CQ ring is the SQ mapping: {@code cqAddr == sqAddr}
 * and {@code cqLen} is 0, nothing of its own to unmap. An address of -1 is a region not mapped.
 *
 * @param fd       the ring's file descriptor, or -1
 * @param sqAddr   the SQ ring's mapping
 * @param sqLen    its length
 * @param cqAddr   the CQ ring's mapping ({@code sqAddr} when they share one)
 * @param cqLen    its own length (0 when shared)
 * @param sqesAddr the SQE array's mapping
 * @param sqesLen  its length
 */
record RingMaps(int fd, long sqAddr, long sqLen, long cqAddr, long cqLen, long sqesAddr, long sqesLen) {
    /** What {@link #map} made: the maps, or the step that failed and its errno. */
    record Made(RingMaps maps, String step, int errno) {}

    /** Whether the SQ and CQ rings share one mapping. */
    boolean single() { return cqAddr == sqAddr; }

    /** The SQ ring as a segment bound to {@code arena} (so an access after close fails instead of touching unmapped memory). */
    MemorySegment sq(Arena arena) { return view(sqAddr, sqLen, arena); }

    /** The CQ ring, bound to {@code arena}. */
    MemorySegment cq(Arena arena) { return view(cqAddr, single() ? sqLen : cqLen, arena); }

    /** The SQE array, bound to {@code arena}. */
    MemorySegment sqes(Arena arena) { return view(sqesAddr, sqesLen, arena); }

    @SuppressWarnings("restricted")
    private static MemorySegment view(long addr, long len, Arena arena) {
        return MemorySegment.ofAddress(addr).reinterpret(len, arena, null);
    }

    /**
     * Sets up a ring of {@code entries} into {@code params} and maps its regions; on a failure,
     * undoes what it did and says which step failed. {@code separateMaps}: map the CQ ring on its
     * own even where the kernel offers a single mapping, as a kernel before 5.4 requires.
     */
    static Made map(MemorySegment capture, MemorySegment params, int entries, boolean separateMaps) {
        int fd = -1;
        long sqAddr = -1, cqAddr = -1, sqesAddr = -1, sqLen = 0, cqLen = 0, sqesLen = 0;
        try {
            long r = Sys.syscall(capture, Sys.NR.ioUringSetup(), entries, params.address(), 0, 0, 0, 0);
            if (r < 0) return new Made(null, "io_uring_setup", Sys.errno(capture));
            fd = (int) r;
            int sqN = params.get(ValueLayout.JAVA_INT, P_SQ_ENTRIES);
            int cqN = params.get(ValueLayout.JAVA_INT, P_CQ_ENTRIES);
            sqLen = Integer.toUnsignedLong(params.get(ValueLayout.JAVA_INT, P_SQ_OFF + SO_ARRAY)) + (long) sqN * Integer.BYTES;
            cqLen = Integer.toUnsignedLong(params.get(ValueLayout.JAVA_INT, P_CQ_OFF + CO_CQES)) + (long) cqN * CQE_SIZE;
            boolean single = (params.get(ValueLayout.JAVA_INT, P_FEATURES) & IORING_FEAT_SINGLE_MMAP) != 0 && !separateMaps;
            if (single) sqLen = cqLen = Math.max(sqLen, cqLen);
            sqAddr = Sys.mmapShared(capture, sqLen, fd, IORING_OFF_SQ_RING);
            if (sqAddr == -1) return failed(capture, "mmap of the SQ ring", new RingMaps(fd, -1, 0, -1, 0, -1, 0));
            if (single) {
                cqAddr = sqAddr;
                cqLen = 0;
            } else {
                cqAddr = Sys.mmapShared(capture, cqLen, fd, IORING_OFF_CQ_RING);
                if (cqAddr == -1) return failed(capture, "mmap of the CQ ring", new RingMaps(fd, sqAddr, sqLen, -1, 0, -1, 0));
            }
            sqesLen = (long) sqN * SQE_SIZE;
            sqesAddr = Sys.mmapShared(capture, sqesLen, fd, IORING_OFF_SQES);
            RingMaps maps = new RingMaps(fd, sqAddr, sqLen, cqAddr, cqLen, sqesAddr, sqesLen);
            if (sqesAddr == -1) return failed(capture, "mmap of the SQEs", maps);
            return new Made(maps, null, 0);
        } catch (RuntimeException | Error e) {
            // Nothing above throws once FFM is bound; if something does, leak nothing.
            new RingMaps(fd, sqAddr, sqLen, cqAddr, cqLen, sqesAddr, sqesLen).unmapAndClose();
            throw e;
        }
    }

    /** The errno of the step that failed (read before the undo's own calls), after undoing {@code done}. */
    private static Made failed(MemorySegment capture, String step, RingMaps done) {
        int errno = Sys.errno(capture);
        done.unmapAndClose();
        return new Made(null, step, errno);
    }

    /** Unmaps what is mapped and closes the descriptor, each only if it was made. */
    void unmapAndClose() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = Sys.captureBuffer(a);
            if (sqesAddr != -1 && sqesLen > 0) Sys.munmap(c, sqesAddr, sqesLen);
            if (cqAddr != -1 && cqLen > 0 && !single()) Sys.munmap(c, cqAddr, cqLen);
            if (sqAddr != -1 && sqLen > 0) Sys.munmap(c, sqAddr, sqLen);
            if (fd >= 0) Sys.close(c, fd);
        }
    }
}
