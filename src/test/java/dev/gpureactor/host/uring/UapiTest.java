package dev.gpureactor.host.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Pins the hand-written layouts to linux/io_uring.h: the expected numbers are {@code sizeof} and
 * {@code offsetof} printed by a C program compiled against the header (linux-libc-dev 6.1, x86-64;
 * the uapi structs have the same layout on aarch64).
 */
class UapiTest {
    @Test
    void structSizesMatchTheHeader() {
        assertEquals(120, Uapi.PARAMS.byteSize(), "io_uring_params");
        assertEquals(40, Uapi.SQRING_OFFSETS.byteSize(), "io_sqring_offsets");
        assertEquals(40, Uapi.CQRING_OFFSETS.byteSize(), "io_cqring_offsets");
        assertEquals(64, Uapi.SQE.byteSize(), "io_uring_sqe");
        assertEquals(16, Uapi.CQE.byteSize(), "io_uring_cqe");
        assertEquals(16, Uapi.KERNEL_TIMESPEC.byteSize(), "__kernel_timespec");
    }

    @Test
    void paramsOffsetsMatchTheHeader() {
        assertEquals(0, Uapi.P_SQ_ENTRIES);
        assertEquals(4, Uapi.P_CQ_ENTRIES);
        assertEquals(8, Uapi.P_FLAGS);
        assertEquals(20, Uapi.P_FEATURES);
        assertEquals(40, Uapi.P_SQ_OFF);
        assertEquals(80, Uapi.P_CQ_OFF);
    }

    @Test
    void ringOffsetsMatchTheHeader() {
        long[] sq = {Uapi.SO_HEAD, Uapi.SO_TAIL, Uapi.SO_RING_MASK, Uapi.SO_RING_ENTRIES, Uapi.SO_FLAGS, Uapi.SO_DROPPED, Uapi.SO_ARRAY};
        long[] cq = {Uapi.CO_HEAD, Uapi.CO_TAIL, Uapi.CO_RING_MASK, Uapi.CO_RING_ENTRIES, Uapi.CO_OVERFLOW, Uapi.CO_CQES};
        for (int i = 0; i < sq.length; i++) assertEquals(4L * i, sq[i], "io_sqring_offsets field " + i);
        for (int i = 0; i < cq.length; i++) assertEquals(4L * i, cq[i], "io_cqring_offsets field " + i);
    }

    @Test
    void sqeAndCqeOffsetsMatchTheHeader() {
        assertEquals(0, Uapi.SQE_OPCODE);
        assertEquals(4, Uapi.SQE_FD);
        assertEquals(8, Uapi.SQE_OFF);
        assertEquals(16, Uapi.SQE_ADDR);
        assertEquals(24, Uapi.SQE_LEN);
        assertEquals(28, Uapi.SQE_TIMEOUT_FLAGS);
        assertEquals(32, Uapi.SQE_USER_DATA);
        assertEquals(0, Uapi.CQE_USER_DATA);
        assertEquals(8, Uapi.CQE_RES);
        assertEquals(12, Uapi.CQE_FLAGS);
        assertEquals(0, Uapi.TS_SEC);
        assertEquals(8, Uapi.TS_NSEC);
    }

    @Test
    void opcodesAndFlags() {
        assertEquals(11, Uapi.IORING_OP_TIMEOUT);
    }

    @Test
    void syscallNumbers() {
        assertEquals(new Sys.Numbers(425, 426), Sys.numbers("amd64"));
        assertEquals(new Sys.Numbers(425, 426), Sys.numbers("aarch64"));
        assertEquals(null, Sys.numbers("riscv64"));
    }
}
