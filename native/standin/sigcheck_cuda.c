/*
 * Compiled (never linked) by build.sh where a real cuda.h is found: it includes NVIDIA's header,
 * then re-declares every entry point of standin_cuda.h. C accepts a second declaration only when
 * the two prototypes are compatible, so any drift between standin_cuda.h (and through the
 * header-check test, the Java FunctionDescriptors) and cuda.h fails the build.
 */
#define GAR_STANDIN_WITH_CUDA_H 1
#include "standin_cuda.h"

typedef char gar_check_cudeviceptr_is_64_bits[sizeof(CUdeviceptr) == 8 ? 1 : -1];
typedef char gar_check_curesult_is_int_sized[sizeof(CUresult) == sizeof(int) ? 1 : -1];
typedef char gar_check_attr_122[CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS == 122 ? 1 : -1];
typedef char gar_check_attr_92[CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 == 92 ? 1 : -1];
typedef char gar_check_attr_93[CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 == 93 ? 1 : -1];
typedef char gar_check_devicemap[CU_MEMHOSTALLOC_DEVICEMAP == 0x02 ? 1 : -1];
typedef char gar_check_portable[CU_MEMHOSTALLOC_PORTABLE == 0x01 ? 1 : -1];
typedef char gar_check_not_ready[CUDA_ERROR_NOT_READY == 600 ? 1 : -1];
typedef char gar_check_launch_failed[CUDA_ERROR_LAUNCH_FAILED == 719 ? 1 : -1];
typedef char gar_check_oom[CUDA_ERROR_OUT_OF_MEMORY == 2 ? 1 : -1];
typedef char gar_check_wait_geq[CU_STREAM_WAIT_VALUE_GEQ == 0x0 ? 1 : -1];
typedef char gar_check_sched_blocking_sync[CU_CTX_SCHED_BLOCKING_SYNC == 0x04 ? 1 : -1];
