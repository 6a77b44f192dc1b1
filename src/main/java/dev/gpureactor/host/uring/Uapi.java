package dev.gpureactor.host.uring;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The kernel's io_uring ABI, written by hand from {@code linux/io_uring.h}: the structs as
 * {@link MemoryLayout}s with the header's field names, and the constants this host uses.
 *
 * <p>The layouts were checked against {@code offsetof}/{@code sizeof} of the machine's header
 * (linux-libc-dev 6.1); {@code UapiTest} pins every offset so a typo cannot pass. Unions are
 * modelled as the member this host uses, named after the header's first member, with the other
 * member's name in a comment.
 *
 * <p>Every field is little-endian-native as the kernel writes it; the layouts use the platform's
 * byte order ({@code JAVA_INT} etc.), which is what the kernel uses on x86-64 and aarch64.
 */
final class Uapi {
    private Uapi() {}

    // ---- struct io_sqring_offsets (40 bytes) --------------------------------------------------
    static final StructLayout SQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"),
            JAVA_INT.withName("tail"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("dropped"),
            JAVA_INT.withName("array"),
            JAVA_INT.withName("resv1"),
            JAVA_LONG.withName("resv2") // user_addr in newer headers
    ).withName("io_sqring_offsets");

    // ---- struct io_cqring_offsets (40 bytes) --------------------------------------------------
    static final StructLayout CQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"),
            JAVA_INT.withName("tail"),
            JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"),
            JAVA_INT.withName("overflow"),
            JAVA_INT.withName("cqes"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("resv1"),
            JAVA_LONG.withName("resv2") // user_addr in newer headers
    ).withName("io_cqring_offsets");

    // ---- struct io_uring_params (120 bytes) ---------------------------------------------------
    static final StructLayout PARAMS = MemoryLayout.structLayout(
            JAVA_INT.withName("sq_entries"),
            JAVA_INT.withName("cq_entries"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("sq_thread_cpu"),
            JAVA_INT.withName("sq_thread_idle"),
            JAVA_INT.withName("features"),
            JAVA_INT.withName("wq_fd"),
            MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv"),
            SQRING_OFFSETS.withName("sq_off"),
            CQRING_OFFSETS.withName("cq_off")
    ).withName("io_uring_params");

    // ---- struct io_uring_sqe (64 bytes) -------------------------------------------------------
    static final StructLayout SQE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("opcode"),
            JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("ioprio"),
            JAVA_INT.withName("fd"),
            MemoryLayout.unionLayout(
                    JAVA_LONG.withName("off"),
                    JAVA_LONG.withName("addr2")).withName("u_off"),
            MemoryLayout.unionLayout(
                    JAVA_LONG.withName("addr"),
                    JAVA_LONG.withName("splice_off_in")).withName("u_addr"),
            JAVA_INT.withName("len"),
            MemoryLayout.unionLayout(
                    JAVA_INT.withName("rw_flags"),
                    JAVA_INT.withName("timeout_flags"),
                    JAVA_INT.withName("futex_flags")).withName("u_op_flags"),
            JAVA_LONG.withName("user_data"),
            JAVA_SHORT.withName("buf_index"), // union { buf_index; buf_group } __packed
            JAVA_SHORT.withName("personality"),
            JAVA_INT.withName("splice_fd_in"), // union { splice_fd_in; file_index; {addr_len; __pad3} }
            JAVA_LONG.withName("addr3"),      // union { {addr3; __pad2[1]}; cmd[0] }
            JAVA_LONG.withName("__pad2")
    ).withName("io_uring_sqe");

    // ---- struct io_uring_cqe (16 bytes, without the CQE32 tail) -------------------------------
    static final StructLayout CQE = MemoryLayout.structLayout(
            JAVA_LONG.withName("user_data"),
            JAVA_INT.withName("res"),
            JAVA_INT.withName("flags")
    ).withName("io_uring_cqe");

    // ---- struct __kernel_timespec (16 bytes on every ABI, unlike struct timespec) -------------
    static final StructLayout KERNEL_TIMESPEC = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_LONG.withName("tv_nsec")
    ).withName("__kernel_timespec");

    // ---- offsets, computed once from the layouts ----------------------------------------------
    static final long P_SQ_ENTRIES = off(PARAMS, "sq_entries");
    static final long P_CQ_ENTRIES = off(PARAMS, "cq_entries");
    static final long P_FLAGS = off(PARAMS, "flags");
    static final long P_FEATURES = off(PARAMS, "features");
    static final long P_SQ_OFF = off(PARAMS, "sq_off");
    static final long P_CQ_OFF = off(PARAMS, "cq_off");

    static final long SO_HEAD = off(SQRING_OFFSETS, "head");
    static final long SO_TAIL = off(SQRING_OFFSETS, "tail");
    static final long SO_RING_MASK = off(SQRING_OFFSETS, "ring_mask");
    static final long SO_RING_ENTRIES = off(SQRING_OFFSETS, "ring_entries");
    static final long SO_FLAGS = off(SQRING_OFFSETS, "flags");
    static final long SO_DROPPED = off(SQRING_OFFSETS, "dropped");
    static final long SO_ARRAY = off(SQRING_OFFSETS, "array");

    static final long CO_HEAD = off(CQRING_OFFSETS, "head");
    static final long CO_TAIL = off(CQRING_OFFSETS, "tail");
    static final long CO_RING_MASK = off(CQRING_OFFSETS, "ring_mask");
    static final long CO_RING_ENTRIES = off(CQRING_OFFSETS, "ring_entries");
    static final long CO_OVERFLOW = off(CQRING_OFFSETS, "overflow");
    static final long CO_CQES = off(CQRING_OFFSETS, "cqes");

    static final long SQE_OPCODE = off(SQE, "opcode");
    static final long SQE_FD = off(SQE, "fd");
    static final long SQE_OFF = SQE.byteOffset(groupElement("u_off"), groupElement("off"));
    static final long SQE_ADDR = SQE.byteOffset(groupElement("u_addr"), groupElement("addr"));
    static final long SQE_LEN = off(SQE, "len");
    static final long SQE_TIMEOUT_FLAGS = SQE.byteOffset(groupElement("u_op_flags"), groupElement("timeout_flags"));
    static final long SQE_USER_DATA = off(SQE, "user_data");

    static final long CQE_USER_DATA = off(CQE, "user_data");
    static final long CQE_RES = off(CQE, "res");
    static final long CQE_FLAGS = off(CQE, "flags");

    static final long TS_SEC = off(KERNEL_TIMESPEC, "tv_sec");
    static final long TS_NSEC = off(KERNEL_TIMESPEC, "tv_nsec");

    // ---- constants ----------------------------------------------------------------------------
    /** mmap offsets of the three regions. */
    static final long IORING_OFF_SQ_RING = 0L;
    static final long IORING_OFF_CQ_RING = 0x8000000L;
    static final long IORING_OFF_SQES = 0x10000000L;

    /** params.features: SQ and CQ rings share one mapping (Linux 5.4+). */
    static final int IORING_FEAT_SINGLE_MMAP = 1;

    /** io_uring_enter flags. */
    static final int IORING_ENTER_GETEVENTS = 1;

    /** Opcodes (enum io_uring_op). */
    static final byte IORING_OP_NOP = 0;
    static final byte IORING_OP_TIMEOUT = 11;

    static final int SQE_SIZE = (int) SQE.byteSize();
    static final int CQE_SIZE = (int) CQE.byteSize();

    private static long off(StructLayout s, String name) {
        return s.byteOffset(groupElement(name));
    }
}
