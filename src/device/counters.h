/*
 * What a device backend did, process-wide, for the residency test: each
 * backend counts its own calls (CUDA in cuda/calls.c, Vulkan in
 * vulkan/vk.c), relaxed atomics, read by vqx_device_counters.
 */
#ifndef VQX_DEVICE_COUNTERS_H
#define VQX_DEVICE_COUNTERS_H

#include <stdint.h>

#include "vqx/vqx.h"

typedef struct VqxDeviceCounters {
    uint64_t uploads;        /* host-to-device copies */
    uint64_t upload_bytes;
    uint64_t readbacks;      /* device-to-host copies, or host reads of the results */
    uint64_t readback_bytes;
    uint64_t syncs;          /* host waits on an event, a stream, a fence or the device */
    uint64_t allocations;    /* device and host-visible memory, command buffers */
    uint64_t launches;       /* CUDA graph launches, Vulkan queue submissions */
    uint64_t device_copies;  /* frames copied from device-memory pictures */
    uint64_t device_copy_bytes;
} VqxDeviceCounters;

/* The counters of a backend; zeros for one not in this build. */
void vqx_device_counters(enum VqxBackend backend, VqxDeviceCounters *out);

static inline void vqx_count(uint64_t *counter, uint64_t n)
{
    __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

/* A copy of the counters, each read atomically (a backend's threads may be
 * counting). */
static inline void vqx_counters_load(const VqxDeviceCounters *from, VqxDeviceCounters *out)
{
    const uint64_t *in = (const uint64_t *)from;
    uint64_t *to = (uint64_t *)out;
    for (unsigned i = 0; i < sizeof(*from) / sizeof(uint64_t); i++)
        to[i] = __atomic_load_n(&in[i], __ATOMIC_RELAXED);
}

/* Each backend's reading (its device_none.c gives zeros). */
void vqx_cuda_counters(VqxDeviceCounters *out);
void vqx_vk_counters(VqxDeviceCounters *out);

#endif
