/* The CUDA backend of a build without nvcc: there is no device to open. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "device/counters.h"
#include "device/device.h"

int vqx_cuda_device_open(VqxDevice **dev, unsigned gpu, void *cuda_context, char *err, size_t len)
{
    (void)gpu, (void)cuda_context;
    *dev = NULL;
    snprintf(err, len, "backend cuda: not in this build (built without nvcc)");
    return -ENOTSUP;
}

/* Pinned memory is asked for only of an open CUDA device. */
void *vqx_device_host_alloc(size_t bytes)
{
    (void)bytes;
    return NULL;
}

void vqx_device_host_free(void *ptr)
{
    (void)ptr;
}

void vqx_cuda_counters(VqxDeviceCounters *out)
{
    memset(out, 0, sizeof(*out));
}
