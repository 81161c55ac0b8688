/*
 * Shared by the Vulkan tests: the device they run on, or meson's skip
 * (exit 77) with the reason when there is none, unless VQX_REQUIRE_VULKAN
 * is set (CI, which installs lavapipe), where no device is a failure.
 */
#ifndef VQX_TESTS_VULKAN_CHECK_H
#define VQX_TESTS_VULKAN_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "vulkan/vk.h"

static VqxVk *vulkan_device_or_skip(void)
{
    VqxVk *vk;
    const char *why;
    const char *index = getenv("VQX_VULKAN_DEVICE");
    if (vqx_vk_open(&vk, index ? (unsigned)atoi(index) : 0, &why)) {
        if (getenv("VQX_REQUIRE_VULKAN")) {
            printf("FAIL: no Vulkan device (%s), and VQX_REQUIRE_VULKAN is set\n", why);
            exit(1);
        }
        printf("SKIP: no Vulkan device (%s)\n", why);
        exit(77);
    }
    printf("Vulkan device: %s\n", vqx_vk_device_name(vk));
    return vk;
}

#endif
