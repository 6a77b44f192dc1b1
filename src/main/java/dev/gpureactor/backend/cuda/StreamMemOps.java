package dev.gpureactor.backend.cuda;

import java.util.OptionalInt;

import static dev.gpureactor.backend.cuda.raw.CudaRaw.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS;
import static dev.gpureactor.backend.cuda.raw.CudaRaw.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1;
import static dev.gpureactor.backend.cuda.raw.CudaRaw.CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1;

/**
 * Whether a device takes {@code cuStreamWriteValue64}, read from both attribute numbers {@code
 * cuda.h} defines, and which one answered.
 *
 * <p>The current attribute, {@code CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS} (122), governs
 * the v2 memop API this library calls, so when the driver knows it, it decides, whatever the
 * deprecated {@code _V1} numbers say (on GB10 attribute 92 reads 0 while 122 reads 1). Only a
 * driver that does not know 122 is asked the legacy pair: {@code CAN_USE_STREAM_MEM_OPS_V1} (92) and
 * {@code CAN_USE_64_BIT_STREAM_MEM_OPS_V1} (93) must both read nonzero.
 *
 * @param usable     whether the device stores into a line
 * @param answeredBy the attribute number that decided (122, 92 or 93), or -1 when none is known
 * @param detail     every reading, for messages and {@code gar probe}
 */
public record StreamMemOps(boolean usable, int answeredBy, String detail) {

    /**
     * Reads the attributes of {@code device} (a {@code CUdevice}).
     *
     * @param driver the driver
     * @param device the device
     * @return the readings
     */
    public static StreamMemOps read(CudaDriver driver, int device) {
        OptionalInt current = driver.attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, device);
        OptionalInt v1 = driver.attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, device);
        OptionalInt v1x64 = driver.attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1, device);
        String readings = "CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS (122) = " + show(current)
                + ", CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 (92) = " + show(v1)
                + ", CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 (93) = " + show(v1x64);
        if (current.isPresent()) {
            return new StreamMemOps(current.getAsInt() != 0, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS,
                    "attribute 122 answered: " + readings);
        }
        if (v1.isPresent() && v1x64.isPresent()) {
            boolean usable = v1.getAsInt() != 0 && v1x64.getAsInt() != 0;
            int by = v1.getAsInt() == 0 ? CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 : CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1;
            return new StreamMemOps(usable, by, "legacy attribute " + by + " answered (the driver does not know 122): " + readings);
        }
        return new StreamMemOps(false, -1, "no stream-memory-ops attribute is known to this driver: " + readings);
    }

    private static String show(OptionalInt v) {
        return v.isPresent() ? Integer.toString(v.getAsInt()) : "unknown";
    }
}
