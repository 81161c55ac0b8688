/* The CUDA backend of a build without nvcc: there is no device to open. */
#include <errno.h>
#include <stdio.h>

#include "cuda/device.h"

int vqx_device_open(VqxDevice **dev, unsigned gpu, void *cuda_context, char *err, size_t len)
{
    (void)gpu, (void)cuda_context;
    *dev = NULL;
    snprintf(err, len, "backend cuda: not in this build (built without nvcc)");
    return -ENOTSUP;
}

void vqx_device_quiesce(VqxDevice *dev)
{
    (void)dev;
}

void vqx_device_close(VqxDevice **dev)
{
    *dev = NULL;
}

bool vqx_device_has_members(const VqxDevice *dev)
{
    (void)dev;
    return false;
}

/* Unreachable without an open device; they say so if reached. */
int vqx_device_add(VqxDevice *dev, const VqxFeatureExtractor *fex, void *state,
                   VqxSink *sink, const VqxFrameFormat *fmt)
{
    (void)dev, (void)fex, (void)state, (void)sink, (void)fmt;
    return -ENOTSUP;
}

int vqx_device_start(VqxDevice *dev, const VqxFrameFormat *fmt)
{
    (void)dev, (void)fmt;
    return -ENOTSUP;
}

int vqx_device_frame(VqxDevice *dev, const VqxPicture *ref, const VqxPicture *dis,
                     unsigned index, bool sampled, enum VqxFrameMemory memory, bool *held)
{
    (void)dev, (void)ref, (void)dis, (void)index, (void)sampled, (void)memory;
    *held = false;
    return -ENOTSUP;
}

void *vqx_device_memory_alloc(VqxDevice *dev, size_t bytes)
{
    (void)dev, (void)bytes;
    return NULL;
}

void vqx_device_memory_free(VqxDevice *dev, void *ptr)
{
    (void)dev, (void)ptr;
}

int vqx_device_find_overflow(VqxDevice *dev, const VqxPicture *const pics[2], unsigned planes,
                             unsigned *which, VqxSampleOverflow *at)
{
    (void)dev, (void)pics, (void)planes, (void)which, (void)at;
    return -ENOTSUP;
}

int vqx_device_wait(VqxDevice *dev, unsigned index)
{
    (void)dev, (void)index;
    return -ENOTSUP;
}

void *vqx_device_host_alloc(size_t bytes)
{
    (void)bytes;
    return NULL;
}

void vqx_device_host_free(void *ptr)
{
    (void)ptr;
}

int vqx_device_drain(VqxDevice *dev)
{
    (void)dev;
    return -ENOTSUP;
}

unsigned vqx_device_collected(const VqxDevice *dev)
{
    (void)dev;
    return 0;
}

const char *vqx_device_error(const VqxDevice *dev)
{
    (void)dev;
    return "backend cuda: not in this build";
}
