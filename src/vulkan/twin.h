/*
 * What Vulkan twins call besides device.h's vqx_device_use_planes and
 * vqx_device_result_bytes. In a Vulkan twin's record, VqxDeviceFrame's
 * stream is the block's VqxVkCommands, and its ref, dis and result are
 * device addresses (vqx_vulkan_address).
 */
#ifndef VQX_VULKAN_TWIN_H
#define VQX_VULKAN_TWIN_H

#include <stdint.h>

#include "device/device.h"
#include "vulkan/kernels.h"

/* ---- during device_init ---- */

/* The runtime, to make the twin's kernels. */
VqxVk *vqx_vulkan_runtime(VqxDevice *dev);
/* A zeroed device buffer owned by the backend, freed at its close. */
int vqx_vulkan_buffer(VqxDevice *dev, size_t bytes, VkDeviceAddress *address, VqxSink *sink);
/* A device buffer owned by the backend holding a copy of `bytes` of data
 * (a table the kernels read). */
int vqx_vulkan_table(VqxDevice *dev, const void *data, size_t bytes, VkDeviceAddress *address,
                     VqxSink *sink);
/* The backend frees these kernels at its close (their handles are copied). */
int vqx_vulkan_adopt_kernels(VqxDevice *dev, const VqxVkKernel *kernels, unsigned n,
                             VqxSink *sink);
/* A kernel-making call's failure, with the runtime's message. */
int vqx_vulkan_failed(VqxDevice *dev, int err, VqxSink *sink);

/* ---- during record ---- */

static inline VkDeviceAddress vqx_vulkan_address(const void *p)
{
    return (VkDeviceAddress)(uintptr_t)p;
}

static inline const VqxVkCommands *vqx_vulkan_commands(const VqxDeviceFrame *f)
{
    return f->stream;
}

#endif
