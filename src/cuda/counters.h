/* What the CUDA backend did, process-wide, for the residency test. */
#ifndef VQX_CUDA_COUNTERS_H
#define VQX_CUDA_COUNTERS_H

#include <stdint.h>

typedef struct VqxCudaCounters {
    uint64_t uploads;        /* host-to-device copies */
    uint64_t upload_bytes;
    uint64_t readbacks;      /* device-to-host copies */
    uint64_t readback_bytes;
    uint64_t syncs;          /* host waits on an event, a stream or the device */
    uint64_t allocations;    /* device and pinned host allocations */
    uint64_t graph_launches;
    uint64_t device_copies;  /* frames copied from device-memory pictures */
    uint64_t device_copy_bytes;
} VqxCudaCounters;

void vqx_cuda_counters(VqxCudaCounters *out);

#endif
