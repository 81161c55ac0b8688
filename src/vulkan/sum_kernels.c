/* The sum of 64-bit integers (kernels.h): shaders/sum64.comp. */
#include "vulkan/kernels.h"
#include "vulkan/spirv.h"

/* The shader's push constants, member for member. */
typedef struct Sum64Push {
    uint64_t terms, total;
    uint32_t n, index;
} Sum64Push;

int vqx_vk_sum64_kernel(VqxVk *vk, VqxVkKernel *k)
{
    return vqx_vk_kernel(vk, vqx_spirv_sum64, vqx_spirv_sum64_bytes, sizeof(Sum64Push), k);
}

void vqx_vk_sum64_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k,
                         VkDeviceAddress terms, uint32_t n, VkDeviceAddress total, uint32_t index)
{
    const Sum64Push push = { terms, total, n, index };
    vqx_vk_dispatch(vk, c, k, &push, 1, 1, 1);
}
