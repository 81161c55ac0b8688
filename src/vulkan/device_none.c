/* The Vulkan backend of a build without Vulkan's headers or glslc. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "device/counters.h"
#include "device/device.h"

int vqx_vulkan_device_open(VqxDevice **dev, unsigned gpu, char *err, size_t len)
{
    (void)gpu;
    *dev = NULL;
    snprintf(err, len, "backend vulkan: not in this build (built without Vulkan's headers or "
             "glslc)");
    return -ENOTSUP;
}

void vqx_vk_counters(VqxDeviceCounters *out)
{
    memset(out, 0, sizeof(*out));
}
